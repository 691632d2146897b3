import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectRanges, normalizeRanges, rangesContain, rangesSize, subtractRanges, type AddressRange } from '../../src/utilization/cidr-ranges.js';

const UNIVERSE = 64;
const range = fc
  .record({ version: fc.constantFrom(4 as const, 6 as const), a: fc.nat(UNIVERSE), b: fc.nat(UNIVERSE) })
  .map(({ version, a, b }): AddressRange => ({ version, start: BigInt(Math.min(a, b)), end: BigInt(Math.max(a, b)) }));
const ranges = fc.array(range, { maxLength: 8 });

/** The addresses of a list of ranges as "version:value" strings, by enumeration. */
function members(list: readonly AddressRange[]): Set<string> {
  const out = new Set<string>();
  for (const r of list) for (let v = r.start; v < r.end; v += 1n) out.add(`${r.version}:${v}`);
  return out;
}

describe('range-set arithmetic (properties against enumeration)', () => {
  it('normalize keeps the members and yields sorted, disjoint, non-adjacent ranges', () => {
    fc.assert(
      fc.property(ranges, (list) => {
        const set = normalizeRanges(list);
        expect(members(set)).toEqual(members(list));
        expect(rangesSize(set)).toBe(BigInt(members(list).size));
        set.forEach((r, i) => {
          const prev = set[i - 1];
          if (prev?.version === r.version) expect(prev.end < r.start).toBe(true);
        });
      }),
    );
  });

  it('union, intersection and difference equal the set operations on members', () => {
    fc.assert(
      fc.property(ranges, ranges, (a, b) => {
        const [sa, sb] = [normalizeRanges(a), normalizeRanges(b)];
        const [ma, mb] = [members(a), members(b)];
        expect(members(normalizeRanges([...sa, ...sb]))).toEqual(new Set([...ma, ...mb]));
        expect(members(intersectRanges(sa, sb))).toEqual(new Set([...ma].filter((x) => mb.has(x))));
        expect(members(subtractRanges(sa, sb))).toEqual(new Set([...ma].filter((x) => !mb.has(x))));
      }),
    );
  });

  it('contains agrees with membership', () => {
    fc.assert(
      fc.property(ranges, fc.constantFrom(4 as const, 6 as const), fc.nat(UNIVERSE), (list, version, value) => {
        expect(rangesContain(normalizeRanges(list), version, BigInt(value))).toBe(members(list).has(`${version}:${value}`));
      }),
    );
  });
});
