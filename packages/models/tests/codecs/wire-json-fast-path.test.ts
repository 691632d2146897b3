import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyWireJsonFull } from '../../src/codecs/wire-json-stringify.js';
import { parseWireJsonFull } from '../../src/codecs/wire-json-parse.js';
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

  it('takes long texts with few openers straight to JSON.parse and still refuses deep ones', () => {
    const block = JSON.stringify({ allocations: Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? null : i)), attributes: Array.from({ length: 40 }, (_, i) => ({ handle_id: `h-${i}`, secondary: { node: 'n'.repeat(50) } })) });
    expect(block.length).toBeGreaterThan(2 * 512);
    expect(parseWireJson(block)).toEqual(JSON.parse(block));
    expect(() => parseWireJson(`${'['.repeat(600)}${']'.repeat(600)}`)).toThrow(/nesting deeper than 512/);
    // 511 openers (fewer than the limit) in a long text: JSON.parse, same value as the full parser.
    const deepButAllowed = `${'['.repeat(511)}${' '.repeat(2000)}${']'.repeat(511)}`;
    expect(JSON.stringify(parseWireJson(deepButAllowed))).toBe(JSON.stringify(JSON.parse(deepButAllowed)));
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

// Values the fast path classifies differently: plain data it leaves to the native writer, and the
// bigints, Maps, holes, skipped members, class instances and boxed primitives it assembles itself.
class Point {
  constructor(
    readonly x: unknown,
    readonly y: unknown,
  ) {}
}

/** `items` and a trailing 0, with a hole at `at` (or at the end). */
const withHole = (items: unknown[], at: number): unknown[] => {
  const out = new Array<unknown>(items.length + 1);
  const hole = Math.min(at, items.length);
  for (let i = 0; i <= items.length; i++) if (i !== hole) out[i] = i < items.length ? items[i] : 0;
  return out;
};

const anyWireValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.constant(Symbol('s')),
    fc.constantFrom(Number.NaN, Number.NEGATIVE_INFINITY),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
    fc.string({ unit: 'binary' }),
    fc.constant(new Date(Date.UTC(2026, 0, 2))),
    fc.integer().map((n) => new Number(n)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.tuple(fc.array(tie('value'), { maxLength: 4 }), fc.nat(5)).map(([items, at]) => withHole(items, at)),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
    fc.dictionary(fc.constantFrom('__proto__', '0', '10', 'a', 'toJSON'), tie('value'), { maxKeys: 3 }),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 4 }).map((entries) => new Map(entries)),
    fc.tuple(tie('value'), tie('value')).map(([x, y]) => new Point(x, y)),
  ),
})).value;

const outcome = (write: (v: unknown) => string, value: unknown): { text: string } | { error: string; name: string } => {
  try {
    return { text: write(value) };
  } catch (err) {
    return { error: (err as Error).message, name: (err as Error).name };
  }
};

describe('stringifyWireJson fast path', () => {
  it('writes exactly what the full writer writes, or fails with the same error', () => {
    fc.assert(
      fc.property(anyWireValue, (value) => {
        expect(outcome(stringifyWireJson, value)).toEqual(outcome(stringifyWireJsonFull, value));
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[string, unknown]>([
    ['a bigint after plain members', { a: 'x', b: [1, 2], c: 3n, d: { e: null } }],
    ['a bigint before plain members', [5n, { a: 1 }, 'x', undefined]],
    ['skipped members before a bigint', { a: undefined, b: () => 1, c: 1n }],
    ['a hole first', withHole([1n, 2], 0)],
    ['a hole after plain items', withHole([1, 'x', 2], 2)],
    ['a Map of plain values', new Map<string, unknown>([['b', { x: [1] }], ['a', undefined]])],
    ['a class instance holding a bigint', new Point(1n, { z: 'q' })],
    ['a boxed number', { n: new Number(3) }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1, b: [2] })],
    ['a __proto__ key before a bigint', parseWireJson('{"__proto__":{"a":1},"n":12345678901234567890}')],
  ])('agrees with the full writer on %s', (_name, value) => {
    expect(stringifyWireJson(value)).toBe(stringifyWireJsonFull(value));
  });
});

describe('parseWireJson fast path against the full parser', () => {
  const parsed = (parse: (t: string) => unknown, text: string): { value: unknown } | { error: string } => {
    try {
      return { value: parse(text) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  // Pieces of JSON and of broken JSON: quotes, escapes, long digit runs inside and outside strings.
  const FRAGMENTS = ['{', '}', '[', ']', ',', ':', ' ', '\n', '"', '\\', '\\"', '"a"', '"k":', '12345678901234567890', '-9007199254740993', '0', '1.5', 'e5', '9007199254740991', 'null', 'true', '"x 12345678901234567890 y"', '"\\\\"', 'u0000'];

  it('gives the same value or the same error for texts made of JSON pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(parsed(parseWireJson, text)).toEqual(parsed(parseWireJsonFull, text));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same value for valid JSON with big integers, short and long, shallow and deep', () => {
    const big = fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }).map((n) => n.toString());
    const doc = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        big,
        fc.string().map((s) => JSON.stringify(s)),
        fc.array(tie('node'), { maxLength: 6 }).map((xs) => `[${xs.join(',')}]`),
        fc.array(fc.tuple(fc.string(), tie('node')), { maxLength: 6 }).map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}:${String(v)}`).join(',')}}`),
      ),
    })).node;
    fc.assert(
      fc.property(doc, fc.nat(1500), (text, pad) => {
        const padded = `${' '.repeat(pad)}${text}`;
        expect(parsed(parseWireJson, padded)).toEqual(parsed(parseWireJsonFull, padded));
      }),
      { numRuns: 1000 },
    );
  });
});
