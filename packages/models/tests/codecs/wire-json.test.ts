import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, parseWireJson, stringifyWireJson } from '../../src/index.js';

describe('parseWireJson', () => {
  it.each([
    ['0', 0],
    ['-0', -0],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['-9007199254740991', -Number.MAX_SAFE_INTEGER],
    ['9007199254740992', 9007199254740992n],
    ['-9007199254740993', -9007199254740993n],
    ['18446744073709551615', 18446744073709551615n],
    ['0000000000000001'.replace(/^0+/, ''), 1],
    ['1.5', 1.5],
    ['1e3', 1000],
    ['12345678901234567890.5', Number('12345678901234567890.5')],
    ['-2.5E-3', -0.0025],
  ])('reads the number %s as %s', (text, expected) => {
    expect(parseWireJson(text)).toBe(expected);
  });

  it('reads strings with every escape', () => {
    expect(parseWireJson(String.raw`"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`)).toBe('a"b\\c/d\b\f\n\r\té😀');
  });

  it('reads nested objects and arrays with insignificant whitespace', () => {
    expect(parseWireJson(' {\n\t"a" : [ 1 , {"b":null} , true , false ] ,\r\n "c":{} , "d":[] } ')).toEqual({
      a: [1, { b: null }, true, false],
      c: {},
      d: [],
    });
  });

  it('keeps a __proto__ key as plain data without touching the prototype', () => {
    const value = parseWireJson('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(value.__proto__).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the last value of a duplicate key, as Go does', () => {
    expect(parseWireJson('{"a":1,"a":2}')).toEqual({ a: 2 });
  });

  it.each([
    ['', 0],
    ['   ', 3],
    ['{', 1],
    ['[1,]', 3],
    ['{"a":1,}', 7],
    ['01', 0],
    ['1.', 0],
    ['-', 0],
    ['+1', 0],
    ['.5', 0],
    ['1e', 0],
    ['NaN', 0],
    ['tru', 0],
    ['nul', 0],
    ['"abc', 4],
    ['"a\u0001"', 2],
    ['"\\x"', 1],
    ['"\\u12G4"', 1],
    ['{"a" 1}', 5],
    ['{a:1}', 1],
    ['[1 2]', 3],
    ['1 2', 2],
    ["{'a':1}", 1],
  ])('rejects %j with a CodecError at position %i', (text, position) => {
    expect(() => parseWireJson(text)).toThrow(CodecError);
    expect(() => parseWireJson(text)).toThrow(`invalid JSON at position ${position} `);
  });

  it('rejects nesting deeper than 512 levels instead of overflowing the stack', () => {
    expect(() => parseWireJson('['.repeat(600) + ']'.repeat(600))).toThrow(/nesting deeper than 512/);
    expect(parseWireJson('['.repeat(100) + ']'.repeat(100))).toBeInstanceOf(Array);
  });

  it('names the line and column of an error', () => {
    expect(() => parseWireJson('{\n  "a": 1,\n  "b": x\n}')).toThrow('(line 3, column 8)');
  });
});

describe('stringifyWireJson', () => {
  it('writes bigints as plain JSON numbers', () => {
    expect(stringifyWireJson({ seq: 1779000000000000001n, list: [-18446744073709551615n] })).toBe(
      '{"seq":1779000000000000001,"list":[-18446744073709551615]}',
    );
  });

  it('writes a Map in its own order, even with integer-like keys', () => {
    expect(stringifyWireJson(new Map<string, unknown>([['10', 1], ['2', 2], ['a', new Map([['z', 1]])]]))).toBe('{"10":1,"2":2,"a":{"z":1}}');
  });

  it('skips undefined object members and writes undefined array items as null, like JSON.stringify', () => {
    const value = { a: undefined, b: [undefined, 1], c: new Date(Date.UTC(2026, 7, 22)) };
    expect(stringifyWireJson(value)).toBe(JSON.stringify(value));
  });

  it('writes a __proto__ own property as an ordinary key', () => {
    expect(stringifyWireJson(parseWireJson('{"__proto__":1}'))).toBe('{"__proto__":1}');
  });

  it.each([
    [{ a: Number.NaN }, '$.a: NaN is not representable'],
    [[Number.POSITIVE_INFINITY], '$[0]: Infinity is not representable'],
    [undefined, '$: value has no JSON representation'],
    [new Map<unknown, unknown>([[1, 2]]), 'map key 1 is not a string'],
  ])('rejects %s with a CodecError', (value, message) => {
    expect(() => stringifyWireJson(value)).toThrow(CodecError);
    expect(() => stringifyWireJson(value)).toThrow(message);
  });

  it('rejects a cycle with a CodecError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyWireJson(cyclic)).toThrow('$.self: circular reference');
  });

  it('writes a value referenced twice (not a cycle) twice', () => {
    const shared = { x: 1 };
    expect(stringifyWireJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

const wireValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
    fc.bigInt({ min: 1n << 53n, max: (1n << 64n) - 1n }),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('parseWireJson and stringifyWireJson together', () => {
  it('are stable: stringify(parse(text)) reproduces text written by stringify', () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        const text = stringifyWireJson(value);
        expect(stringifyWireJson(parseWireJson(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('return every integer exactly: safe ones as numbers, the rest as bigints', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }), (n) => {
        const parsed = parseWireJson(`[${n}]`) as [number | bigint];
        const safe = n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER);
        expect(parsed[0]).toBe(safe ? Number(n) : n);
      }),
      { numRuns: 500 },
    );
  });

  it('agree with JSON.parse once big integers are rounded as JSON.parse rounds them', () => {
    const rounded = (v: unknown): unknown =>
      typeof v === 'bigint'
        ? Number(v)
        : Array.isArray(v)
          ? v.map(rounded)
          : typeof v === 'object' && v !== null
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]))
            : v;
    fc.assert(
      fc.property(fc.json(), (text) => {
        const ours = rounded(parseWireJson(text));
        expect(ours).toEqual(JSON.parse(text));
        expect(stringifyWireJson(ours)).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });
});
