import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoUtc } from '../src/iso-utc.js';

/** The largest time value a Date holds (±100,000,000 days around 1970). */
const MAX_TIME = 8.64e15;

describe('isoUtc (design/models.md, "ISO time without the time zone")', () => {
  it.each([
    ['the epoch', 0],
    ['a timestamp of this era', Date.UTC(2026, 11, 2, 9, 5, 7, 8)],
    ['the last millisecond of a leap day', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
    ['the first millisecond of year 0', -62_167_219_200_000],
    ['the last millisecond of 9999', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
    ['the first millisecond of 10000 (six-digit form)', Date.UTC(10000, 0, 1)],
    ['the last millisecond before year 0 (six-digit form)', -62_167_219_200_001],
    ['the largest date', MAX_TIME],
    ['the smallest date', -MAX_TIME],
  ])('writes %s as toISOString does', (_name, time) => {
    const date = new Date(time);
    expect(isoUtc(date)).toBe(date.toISOString());
  });

  it('matches toISOString for any valid time value', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_TIME, max: MAX_TIME }), (time) => {
        const date = new Date(time);
        expect(isoUtc(date)).toBe(date.toISOString());
      }),
      { numRuns: 5_000 },
    );
  });

  it('throws toISOString\'s RangeError for an invalid date', () => {
    expect(() => isoUtc(new Date(Number.NaN))).toThrow(RangeError);
  });
});
