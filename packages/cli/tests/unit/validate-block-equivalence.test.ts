import fc from 'fast-check';
import type { AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { blockProblem } from '../../src/index.js';
import { referenceBlockProblem } from './reference-block-problem.js';

const NOW = new Date('2026-01-01T00:00:00Z');

/**
 * Blocks of 4 to 16 addresses, mostly near-sound and sometimes broken in each way blockProblem
 * names: indexes out of range or fractional, unused attributes, releases in the future, ordinals
 * out of the block, repeated, fractional or allocated in `unallocated`, a wrong total.
 */
const anyBlock: fc.Arbitrary<AllocationBlock> = fc
  .record({
    prefix: fc.integer({ min: 28, max: 30 }),
    attributeCount: fc.integer({ min: 0, max: 4 }),
    picks: fc.array(fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 5 }), fc.constant(0.5)), { maxLength: 16 }),
    extraFree: fc.array(fc.oneof(fc.integer({ min: -1, max: 17 }), fc.constant(1.5)), { maxLength: 3 }),
    dropFree: fc.nat(3),
    future: fc.array(fc.boolean(), { maxLength: 4 }),
  })
  .map(({ prefix, attributeCount, picks, extraFree, dropFree, future }) => {
    const size = 2 ** (32 - prefix);
    const allocations = Array.from({ length: size }, (_, o) => picks[o] ?? null);
    const free = allocations.flatMap((a, o) => (a === null ? [o] : [])).slice(dropFree);
    const attributes = Array.from({ length: attributeCount }, (_, i) => (future[i] === true ? { releasedAt: '2026-01-02T00:00:00Z' } : { handleId: `h${i}` }));
    return {
      cidr: `10.0.0.0/${prefix}`,
      allocations,
      unallocated: [...free, ...extraFree],
      attributes,
      sequenceNumber: 1n,
      sequenceNumberForAllocation: {},
      deleted: false,
    };
  });

describe('blockProblem against the implementation it replaced', () => {
  it('names the same first problem, or none, on random blocks', () => {
    fc.assert(
      fc.property(anyBlock, (block) => {
        expect(blockProblem(block, NOW)).toBe(referenceBlockProblem(block, NOW));
      }),
      { numRuns: 3000 },
    );
  });
});
