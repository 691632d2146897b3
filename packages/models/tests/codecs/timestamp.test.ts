import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../src/index.js';
import { normalizeRfc3339, normalizeTimestamp } from '../../src/codecs/timestamp.js';

describe('normalizeTimestamp', () => {
  it.each([
    ['2026-08-22T13:33:20Z', '2026-08-22T13:33:20Z'],
    ['2026-08-22T13:33:20.999999999Z', '2026-08-22T13:33:20Z'],
    ['2026-08-22t13:33:20z', '2026-08-22T13:33:20Z'],
    ['2026-08-22T15:33:20.5+02:00', '2026-08-22T13:33:20Z'],
    ['2026-08-22T00:10:00-01:30', '2026-08-22T01:40:00Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00Z'],
  ])('writes %s as %s', (input, expected) => {
    expect(normalizeTimestamp(input, 'field')).toBe(expected);
  });

  it.each([
    '2026-08-22 13:33:20Z',
    '2026-08-22T13:33:20',
    '2026-02-30T00:00:00Z',
    '2027-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-08-22T24:00:00Z',
    '2026-08-22T13:60:00Z',
    '2026-08-22T13:33:20+25:00',
    '2026-08-22T13:33:20.Z',
    '',
  ])('rejects %j naming the field', (input) => {
    expect(() => normalizeTimestamp(input, 'spec.when')).toThrow(CodecError);
    expect(() => normalizeTimestamp(input, 'spec.when')).toThrow('spec.when:');
  });
});

/** The general reading alone, or 'refused'. */
function generalReading(text: string): string {
  try {
    return normalizeRfc3339(text, 'field');
  } catch {
    return 'refused';
  }
}

describe('normalizeTimestamp on texts already in Calico\'s form', () => {
  it('answers as the general reading does, valid or not', () => {
    const two = (max: number) => fc.nat(max).map((n) => String(n).padStart(2, '0'));
    const text = fc.oneof(
      fc.tuple(fc.nat(9999).map((n) => String(n).padStart(4, '0')), two(13), two(32), two(25), two(61), two(61)).map(([y, mo, d, h, mi, se]) => `${y}-${mo}-${d}T${h}:${mi}:${se}Z`),
      fc.string({ unit: fc.constantFrom(...'0123456789-T:Zt z'.split('')), minLength: 18, maxLength: 22 }),
    );
    let kept = 0;
    fc.assert(
      fc.property(text, (t) => {
        const expected = generalReading(t);
        let got: string;
        try {
          got = normalizeTimestamp(t, 'field');
        } catch (err) {
          expect(err).toBeInstanceOf(CodecError);
          got = 'refused';
        }
        if (got === t) kept += 1;
        expect(got).toBe(expected);
      }),
      { numRuns: 6000 },
    );
    expect(kept).toBeGreaterThan(1000);
  });
});
