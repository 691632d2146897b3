import { describe, expect, it } from 'vitest';
import { definedFields } from '../src/defined-fields.js';

describe('definedFields', () => {
  it('drops the undefined fields and keeps the rest, null and false included, in their order', () => {
    const fields = definedFields({ b: 1, a: undefined, c: null, d: false, e: '' });
    expect(fields).toEqual({ b: 1, c: null, d: false, e: '' });
    expect(Object.keys(fields)).toEqual(['b', 'c', 'd', 'e']);
    expect('a' in fields).toBe(false);
  });
});
