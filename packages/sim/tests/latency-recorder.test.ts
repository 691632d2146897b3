import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantile, summarize } from '../src/run/latency-recorder.js';

describe('quantile', () => {
  it.each([
    { values: [], q: 0.5, expected: 0 },
    { values: [7], q: 0.99, expected: 7 },
    { values: [1, 2, 3, 4], q: 0.5, expected: 2 },
    { values: [1, 2, 3, 4], q: 1, expected: 4 },
    { values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], q: 0.9, expected: 9 },
  ])('q$q of $values is $expected', ({ values, q, expected }) => {
    expect(quantile(values, q)).toBe(expected);
  });

  it('returns a member of the list that at least q of the values do not exceed (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 200 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (values, q) => {
        const sorted = [...values].sort((a, b) => a - b);
        const v = quantile(sorted, q);
        expect(sorted).toContain(v);
        expect(sorted.filter((x) => x <= v).length).toBeGreaterThanOrEqual(Math.ceil(q * sorted.length));
      }),
    );
  });
});

describe('summarize', () => {
  it('orders p50 ≤ p90 ≤ p99 ≤ max', () => {
    expect(summarize([5, 1, 9, 3, 7])).toEqual({ count: 5, p50: 5, p90: 9, p99: 9, max: 9 });
  });
});
