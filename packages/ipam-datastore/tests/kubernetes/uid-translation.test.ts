import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { translateUid } from '../../src/kubernetes/uid-translation.js';

describe('translateUid', () => {
  it.each([
    { real: '01000000-0000-4000-8000-000000000000', exposed: '80000000-0000-4000-8000-000000000000' },
    { real: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f', exposed: 'f0f0f0f0-f0f0-4ff0-8ff0-f0f0f0f0f0f0' },
    { real: 'ffffffff-ffff-4fff-bfff-ffffffffffff', exposed: 'ffffffff-ffff-4fff-bfff-ffffffffffff' },
  ])('bit-reverses every byte except the version and variant bytes: $real', ({ real, exposed }) => {
    expect(translateUid(real)).toBe(exposed);
  });

  it('passes through a UID that is not a 16-byte UUID', () => {
    expect(translateUid('not-a-uuid')).toBe('not-a-uuid');
  });

  it('is its own inverse and keeps bytes 6 and 8', () => {
    fc.assert(
      fc.property(fc.uuid(), (uid) => {
        const exposed = translateUid(uid);
        expect(translateUid(exposed)).toBe(uid.toLowerCase());
        expect(exposed.slice(14, 16)).toBe(uid.slice(14, 16).toLowerCase());
        expect(exposed.slice(19, 21)).toBe(uid.slice(19, 21).toLowerCase());
      }),
    );
  });
});
