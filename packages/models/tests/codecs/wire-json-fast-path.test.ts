import { describe, expect, it } from 'vitest';
import { CodecError, parseWireJson, stringifyWireJson } from '../../src/index.js';

// The codecs take a native fast path for ordinary text and values; these cases sit on its edges and
// must come out exactly as the full parser and writer decide.

describe('parseWireJson on the edges of its fast path', () => {
  it.each([
    ['{"a":12345678901234567890,"a":1}', { a: 1 }],
    ['{"a":1,"a":12345678901234567890}', { a: 12345678901234567890n }],
    ['[9007199254740991,-9007199254740993,1234567890123456]', [9007199254740991, -9007199254740993n, 1234567890123456]],
    ['{"s":"x\\"12345678901234567890\\\\","n":[12345678901234567890]}', { s: 'x"12345678901234567890\\', n: [12345678901234567890n] }],
    ['{"z":"\\u0000","n":18446744073709551615}', { z: '\u0000', n: 18446744073709551615n }],
    ['[1.2345678901234567890,12345678901234567890e0]', [1.2345678901234567, 1.2345678901234567e19]],
  ])('reads %s', (text, expected) => {
    expect(parseWireJson(text)).toEqual(expected);
  });

  it('keeps a big integer under a __proto__ key as plain data', () => {
    const value = parseWireJson('{"__proto__":12345678901234567890,"b":[{"__proto__":[12345678901234567891]}]}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'b']);
    expect(value.__proto__).toBe(12345678901234567890n);
    expect((value.b as Record<string, unknown>[])[0]?.__proto__).toEqual([12345678901234567891n]);
  });

  it.each([
    ['{12345678901234567890:1}', 1],
    ['[01234567890123456789]', 1],
    ['[12345678901234567890', 21],
    ['[-12345678901234567890-1]', 1],
  ])('rejects %j at position %i, as the full parser does', (text, position) => {
    expect(() => parseWireJson(text)).toThrow(CodecError);
    expect(() => parseWireJson(text)).toThrow(`invalid JSON at position ${position} `);
  });

  it('applies the depth limit to long texts with big integers', () => {
    expect(() => parseWireJson(`${'['.repeat(600)}12345678901234567890${']'.repeat(600)}`)).toThrow(/nesting deeper than 512/);
    expect(parseWireJson(`${'['.repeat(500)}12345678901234567890${']'.repeat(500)}`)).toBeInstanceOf(Array);
  });
});

describe('stringifyWireJson on the edges of its fast path', () => {
  it('writes a Date inside a Map through toJSON and bigints exactly', () => {
    const value = new Map<string, unknown>([['at', new Date(Date.UTC(2026, 0, 2))], ['seq', [1779000000000000001n]]]);
    expect(stringifyWireJson(value)).toBe('{"at":"2026-01-02T00:00:00.000Z","seq":[1779000000000000001]}');
  });

  it('writes nesting deeper than the fast path allows like JSON.stringify', () => {
    const deep = JSON.parse(`${'['.repeat(700)}1${']'.repeat(700)}`) as unknown;
    expect(stringifyWireJson(deep)).toBe(JSON.stringify(deep));
  });

  it('names the path of a non-finite number deep inside a value', () => {
    expect(() => stringifyWireJson({ a: [{ b: 1 }, { c: Number.NEGATIVE_INFINITY }] })).toThrow('$.a[1].c: -Infinity is not representable');
  });
});
