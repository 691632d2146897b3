import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/seeded-random.js';

const draw = (seed: number, n: number): number[] => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => random());
};

describe('seededRandom', () => {
  it('repeats the same sequence for the same seed and another for another seed', () => {
    expect(draw(20260822, 50)).toEqual(draw(20260822, 50));
    expect(draw(1, 50)).not.toEqual(draw(2, 50));
  });

  it('draws in [0, 1) and spreads over the range', () => {
    const values = draw(7, 10_000);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const tenths = new Set(values.map((v) => Math.floor(v * 10)));
    expect(tenths.size).toBe(10);
    expect(new Set(values).size).toBeGreaterThan(9_990);
  });

  it('reads a seed outside 32 bits by its low 32 bits, as the copies it replaced did', () => {
    expect(draw(2 ** 32 + 5, 5)).toEqual(draw(5, 5));
  });
});
