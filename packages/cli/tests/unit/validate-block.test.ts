import type { AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { blockProblem } from '../../src/index.js';

const NOW = new Date('2026-01-01T00:00:00Z');

/** A /30 block with ordinal 0 allocated (attribute 0) and 1..3 free. */
const sound = (): AllocationBlock => ({
  cidr: '10.0.0.0/30',
  allocations: [0, null, null, null],
  unallocated: [1, 2, 3],
  attributes: [{ handleId: 'h' }],
  sequenceNumber: 1n,
  sequenceNumberForAllocation: { '0': 1n },
  deleted: false,
});

describe('blockProblem', () => {
  it('accepts a sound block', () => {
    expect(blockProblem(sound(), NOW)).toBeUndefined();
  });

  it.each<[string, (b: AllocationBlock) => AllocationBlock, string]>([
    ['a dangling attribute index', (b) => ({ ...b, allocations: [3, null, null, null] }), 'allocation 0 indexes a nonexistent attribute 3'],
    ['an unused attribute', (b) => ({ ...b, attributes: [...b.attributes, {}] }), 'attribute index 1 exists but is not indexed by an allocation'],
    [
      'a release in the future',
      (b) => ({ ...b, attributes: [{ releasedAt: '2026-01-02T00:00:00Z' }] }),
      'attribute index 0 has releasedAt in the future, suggesting clock skew',
    ],
    ['an ordinal outside the block', (b) => ({ ...b, unallocated: [1, 2, 3, 9] }), 'ordinal 9 appears in the Unallocated array but is out of the block'],
    ['a repeated free ordinal', (b) => ({ ...b, unallocated: [1, 2, 2] }), 'ordinal 2 appears more than once in Unallocated array'],
    ['an allocated ordinal listed free', (b) => ({ ...b, unallocated: [0, 1, 2, 3] }), 'ordinal 0 is allocated but appears in Unallocated'],
    ['a lost ordinal', (b) => ({ ...b, unallocated: [1, 2] }), 'expected 4 addresses in this block, but Unallocated (2) + Allocated (1) = 3'],
  ])('reports %s', (_what, mutate, reason) => {
    expect(blockProblem(mutate(sound()), NOW)).toBe(reason);
  });
});
