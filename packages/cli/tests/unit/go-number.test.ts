import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCountWithPercent, formatG5, formatRoundHalfEven, INT64_MAX } from '../../src/format/go-number.js';

describe('formatG5', () => {
  it.each([
    [0n, '0'],
    [64n, '64'],
    [256n, '256'],
    [65536n, '65536'],
    [99999n, '99999'],
    [100000n, '1e+05'],
    [1048576n, '1.0486e+06'],
    [16777216n, '1.6777e+07'],
    [100005n, '1e+05'],
    [100015n, '1.0002e+05'],
    [999995n, '1e+06'],
    [INT64_MAX, '9.2234e+18'],
    [1n << 120n, '9.2234e+18'],
  ])('formats %s as %s (Go %%.5g, half-even, clamped)', (value, expected) => {
    expect(formatG5(value)).toBe(expected);
  });

  it('agrees with toPrecision(5) on values without an exact tie', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 52n }), (n) => {
        fc.pre(n < 100000n || !/^\d{5}5(0*)$/.test(n.toString()));
        const js = Number(n).toPrecision(5);
        const [mantissa = '', exponent] = js.split('e');
        const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
        const expected = exponent === undefined ? trimmed : `${trimmed}e${exponent[0] ?? ''}${exponent.slice(1).padStart(2, '0')}`;
        expect(formatG5(n)).toBe(expected);
      }),
    );
  });
});

describe('formatRoundHalfEven', () => {
  it.each([
    [12.5, '12'],
    [0.5, '0'],
    [1.5, '2'],
    [18.75, '19'],
    [87.5, '88'],
    [99.4, '99'],
    [Number.NaN, 'NaN'],
  ])('rounds %d to %s', (value, expected) => {
    expect(formatRoundHalfEven(value)).toBe(expected);
  });

  it('never differs from the nearest integer by more than one half', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (v) => {
        expect(Math.abs(Number(formatRoundHalfEven(v)) - v)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe('formatCountWithPercent', () => {
  it.each([
    [21n, 65536n, '21 (0%)'],
    [17n, 64n, '17 (27%)'],
    [56n, 64n, '56 (88%)'],
    [INT64_MAX, INT64_MAX, '9.2234e+18 (100%)'],
  ])('formats %s of %s as %s', (part, whole, expected) => {
    expect(formatCountWithPercent(part, whole)).toBe(expected);
  });
});
