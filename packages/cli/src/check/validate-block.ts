import { blockSize } from '@ipamkit/ipam-core';
import type { AllocationBlock } from '@ipamkit/models';

/**
 * The first structural problem of a block, in the order and words of design/calico-callers.md#block-validation, or
 * undefined when the block is sound. `now` decides whether a release timestamp is in the future.
 */
export function blockProblem(block: AllocationBlock, now: Date): string | undefined {
  return blockProblemOfSize(block, now, blockSize(block));
}

/**
 * `blockProblem` with the block's size already known (`ipam check` computes it once per block).
 * Plain index loops and flag arrays instead of iterators and sets: it runs once per block, 100,000
 * times at scale (design/cli.md, "Reading at scale").
 */
export function blockProblemOfSize(block: AllocationBlock, now: Date, size: number): string | undefined {
  const { allocations, attributes, unallocated } = block;
  const referenced = new Uint8Array(attributes.length);
  let allocated = 0;
  for (let ordinal = 0; ordinal < allocations.length; ordinal++) {
    const index = allocations[ordinal];
    if (index === null) continue;
    allocated++;
    if (index === undefined) continue;
    if (index < 0 || index >= attributes.length) return `allocation ${ordinal} indexes a nonexistent attribute ${index}`;
    // A fractional index marks nothing, as it matched no attribute index in a set.
    if (Number.isInteger(index)) referenced[index] = 1;
  }
  const nowMs = now.getTime();
  for (let i = 0; i < attributes.length; i++) {
    if (referenced[i] !== 1) return `attribute index ${i} exists but is not indexed by an allocation`;
    const releasedAt = attributes[i]?.releasedAt;
    if (releasedAt !== undefined && Date.parse(releasedAt) > nowMs) return `attribute index ${i} has releasedAt in the future, suggesting clock skew`;
  }
  const seen = new Uint8Array(size);
  let seenOther: Set<number> | undefined;
  for (const ordinal of unallocated) {
    if (ordinal < 0 || ordinal >= size) return `ordinal ${ordinal} appears in the Unallocated array but is out of the block`;
    if (Number.isInteger(ordinal)) {
      if (seen[ordinal] === 1) return `ordinal ${ordinal} appears more than once in Unallocated array`;
      seen[ordinal] = 1;
    } else {
      seenOther ??= new Set();
      if (seenOther.has(ordinal)) return `ordinal ${ordinal} appears more than once in Unallocated array`;
      seenOther.add(ordinal);
    }
    const index = allocations[ordinal];
    if (index !== null && index !== undefined) return `ordinal ${ordinal} is allocated but appears in Unallocated`;
  }
  const free = unallocated.length;
  if (free + allocated !== size) {
    return `expected ${size} addresses in this block, but Unallocated (${free}) + Allocated (${allocated}) = ${free + allocated}`;
  }
  return undefined;
}

/**
 * The finding for a block whose `allocations` array is shorter than the block (design/cli.md,
 * "ipam check"): readable and kept as stored, but the IPAM core never allocates from it. `size` is
 * the block's (`blockSize`); the test is `hasShortAllocations`'.
 */
export function shortAllocationsProblem(block: AllocationBlock, size: number = blockSize(block)): string | undefined {
  if (block.allocations.length >= size) return undefined;
  return `allocations array has ${block.allocations.length} entries but the block has ${size} addresses; it is never allocated from`;
}
