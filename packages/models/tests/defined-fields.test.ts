import { describe, expect, it } from 'vitest';
import { definedFields } from '../src/defined-fields.js';

describe('definedFields', () => {
  it('drops the undefined fields and keeps the rest, null and false included, in their order', () => {
    const fields = definedFields({ b: 1, a: undefined, c: null, d: false, e: '' });
    expect(fields).toEqual({ b: 1, c: null, d: false, e: '' });
    expect(Object.keys(fields)).toEqual(['b', 'c', 'd', 'e']);
    expect('a' in fields).toBe(false);
  });

  it('keeps a "__proto__" field as an own field, as Object.fromEntries did, and skips inherited ones', () => {
    const source = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.defineProperty(source, '__proto__', { value: 2, enumerable: true, writable: true, configurable: true });
    source.x = undefined;
    const fields = definedFields(source);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toBe(2);
  });
});
