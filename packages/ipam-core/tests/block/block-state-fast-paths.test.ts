import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AllocationBlock, isoUtc } from '@ipamkit/models';
import { compactAttributes, compactAttributesGenerally, formatReleasedAt } from '../../src/block/block-state.js';
import { InvalidAddressError, parseBlockInterval } from '../../src/block/ip-address.js';

// The ninth round's fast paths (design/ipam-core.md, "Allocation cost: the ninth round
// (2026-12-02)") against the formulations they replaced: the set-based compaction, which the
// source keeps for corrupt blocks, is the reference.

const blockWith = (allocations: (number | null)[], attributes: number): AllocationBlock => ({
  cidr: '10.0.0.0/28',
  allocations,
  unallocated: [],
  attributes: Array.from({ length: attributes }, (_, i) => Object.freeze({ handleId: `h${i}` })),
  sequenceNumber: 1n,
  sequenceNumberForAllocation: {},
  deleted: false,
});

describe('compactAttributes', () => {
  it('drops and renumbers exactly as the set-based formulation, sound and corrupt indices alike', () => {
    // Mostly indices naming an attribute; now and then one past the end, negative or fractional.
    const index = fc.oneof(
      { weight: 8, arbitrary: fc.option(fc.nat(7), { nil: null }) },
      { weight: 1, arbitrary: fc.constantFrom(-1, 8, 12, 2.5) },
    );
    fc.assert(
      fc.property(fc.array(index, { maxLength: 16 }), fc.nat(8), (allocations, attributes) => {
        const fast = blockWith([...allocations], attributes);
        const reference = blockWith([...allocations], attributes);
        const originals = fast.attributes;
        expect(compactAttributes(fast)).toBe(compactAttributesGenerally(reference));
        expect(fast.allocations).toEqual(reference.allocations);
        expect(fast.attributes.map((a) => a.handleId)).toEqual(reference.attributes.map((a) => a.handleId));
        // The attributes kept are the block's own objects, not copies.
        for (const a of fast.attributes) expect(originals).toContain(a);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('formatReleasedAt', () => {
  it('rounds up to the whole second as formatting every time does, over runs of times within a second', () => {
    const reference = (date: Date): string => isoUtc(new Date(Math.ceil(date.getTime() / 1000) * 1000)).replace('.000Z', 'Z');
    const base = Date.UTC(2026, 11, 2, 15, 0, 0);
    // Times that often share a second (and its answer) with the one before, and often do not.
    const offsets = fc.array(fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: -1e11, max: 1e11 })), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(offsets, (list) => {
        for (const offset of list) expect(formatReleasedAt(new Date(base + offset))).toBe(reference(new Date(base + offset)));
      }),
      { numRuns: 500 },
    );
  });

  it('still refuses an invalid date after a valid one', () => {
    expect(formatReleasedAt(new Date(0))).toBe('1970-01-01T00:00:00Z');
    expect(() => formatReleasedAt(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatReleasedAt(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('parseBlockInterval, kept', () => {
  it('answers a CIDR parsed before with an equal interval that nobody can change', () => {
    const first = parseBlockInterval('10.0.0.64/26');
    const again = parseBlockInterval('10.0.0.64/26');
    expect(again).toEqual({ version: 4, base: 0x0a000040n, prefixLength: 26, size: 64n });
    expect(Object.isFrozen(again)).toBe(true);
    expect(() => Object.assign(first, { size: 1n })).toThrow(TypeError);
    expect(parseBlockInterval('10.0.0.64/26').size).toBe(64n);
  });

  it('keeps refusing text that does not parse, and parses more CIDRs than it keeps', () => {
    for (let i = 0; i < 3; i++) expect(() => parseBlockInterval('10.0.0.1')).toThrow(InvalidAddressError);
    for (let i = 0; i < 3_000; i++) {
      const cidr = `10.${(i >> 8) & 255}.${i & 255}.0/24`;
      expect(parseBlockInterval(cidr)).toEqual({ version: 4, base: (10n << 24n) | (BigInt(i) << 8n), prefixLength: 24, size: 256n });
    }
    expect(parseBlockInterval('10.0.0.1', true)).toEqual({ version: 4, base: 0x0a000001n, prefixLength: 32, size: 1n });
  });
});
