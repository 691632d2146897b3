import { blockSize, hasShortAllocations } from '@ipamkit/ipam-core';
import type { AllocationBlock } from '@ipamkit/models';

/**
 * The first structural problem of a block, in the order and words of design/calico-callers.md#block-validation, or
 * undefined when the block is sound. `now` decides whether a release timestamp is in the future.
 */
export function blockProblem(block: AllocationBlock, now: Date): string | undefined {
  const size = blockSize(block);
  const referenced = new Set<number>();
  let allocated = 0;
  for (const [ordinal, index] of block.allocations.entries()) {
    if (index === null) continue;
    allocated++;
    if (index < 0 || index >= block.attributes.length) return `allocation ${ordinal} indexes a nonexistent attribute ${index}`;
    referenced.add(index);
  }
  for (const [i, attribute] of block.attributes.entries()) {
    if (!referenced.has(i)) return `attribute index ${i} exists but is not indexed by an allocation`;
    if (attribute.releasedAt !== undefined && Date.parse(attribute.releasedAt) > now.getTime()) {
      return `attribute index ${i} has releasedAt in the future, suggesting clock skew`;
    }
  }
  const seen = new Set<number>();
  for (const ordinal of block.unallocated) {
    if (ordinal < 0 || ordinal >= size) return `ordinal ${ordinal} appears in the Unallocated array but is out of the block`;
    if (seen.has(ordinal)) return `ordinal ${ordinal} appears more than once in Unallocated array`;
    seen.add(ordinal);
    const index = block.allocations[ordinal];
    if (index !== null && index !== undefined) return `ordinal ${ordinal} is allocated but appears in Unallocated`;
  }
  const free = block.unallocated.length;
  if (free + allocated !== size) {
    return `expected ${size} addresses in this block, but Unallocated (${free}) + Allocated (${allocated}) = ${free + allocated}`;
  }
  return undefined;
}

/**
 * The finding for a block whose `allocations` array is shorter than the block (design/cli.md,
 * "ipam check"): readable and kept as stored, but the IPAM core never allocates from it.
 */
export function shortAllocationsProblem(block: AllocationBlock): string | undefined {
  if (!hasShortAllocations(block)) return undefined;
  return `allocations array has ${block.allocations.length} entries but the block has ${blockSize(block)} addresses; it is never allocated from`;
}
