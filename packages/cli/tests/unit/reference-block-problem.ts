import { blockSize } from '@ipamkit/ipam-core';
import type { AllocationBlock } from '@ipamkit/models';

/**
 * `blockProblem` as it was before the read-scale round rewrote it with index loops and flag arrays
 * (design/cli.md, "Reading at scale"), kept test-only as the reference the rewrite must agree with.
 */
export function referenceBlockProblem(block: AllocationBlock, now: Date): string | undefined {
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
