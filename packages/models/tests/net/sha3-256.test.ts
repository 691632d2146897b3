import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostnameHashLabel } from '../../src/net/hostname-hash-label.js';
import { sha3_256 } from '../../src/net/sha3-256.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const reference = (data: Uint8Array | string): string => createHash('sha3-256').update(data).digest('hex');

describe('sha3_256', () => {
  it.each([
    ['', 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a'],
    ['abc', '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532'],
  ])('hashes %j to the FIPS 202 test vector', (input, digest) => {
    expect(hex(sha3_256(input))).toBe(digest);
  });

  it('matches node:crypto on every length around the 136-byte block boundary', () => {
    for (let n = 0; n <= 3 * 136 + 2; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hex(sha3_256(data))).toBe(reference(data));
    }
  });

  it('matches node:crypto on arbitrary bytes and strings', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (data) => hex(sha3_256(data)) === reference(data)), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (s) => hex(sha3_256(s)) === reference(s)), { numRuns: 300 });
  });

  it('gives the hostname-hash label node:crypto gave before', () => {
    for (const host of ['node-1', 'a'.repeat(253), 'ip-10-0-0-1.eu-west-1.compute.internal']) {
      const before = createHash('sha3-256').update(host).digest();
      expect(hostnameHashLabel(host)).toHaveLength(52);
      expect(Buffer.from(sha3_256(host)).equals(before)).toBe(true);
    }
  });
});
