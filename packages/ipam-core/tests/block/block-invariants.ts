import type { AllocationBlock } from '@ipamkit/models';
import { blockSize } from '../../src/block/ordinals.js';

/**
 * Structural invariants every block produced by the pure operations must satisfy. Returns the list
 * of violations (empty when the block is sound) so a failing property shows what broke.
 */
export function blockViolations(block: AllocationBlock): string[] {
  const problems: string[] = [];
  const n = blockSize(block);
  if (block.allocations.length !== n) problems.push(`allocations has ${block.allocations.length} entries, want ${n}`);
  const queued = new Set<number>();
  for (const o of block.unallocated) {
    if (!Number.isInteger(o) || o < 0 || o >= n) problems.push(`unallocated holds out-of-range ${o}`);
    if (queued.has(o)) problems.push(`unallocated holds ${o} twice`);
    queued.add(o);
    if (block.allocations[o] !== null) problems.push(`ordinal ${o} is both queued and allocated`);
  }
  const referenced = new Set<number>();
  block.allocations.forEach((index, o) => {
    if (index === null) {
      if (!queued.has(o)) problems.push(`free ordinal ${o} is missing from unallocated`);
      return;
    }
    if (index < 0 || index >= block.attributes.length) problems.push(`ordinal ${o} points at missing attribute ${index}`);
    referenced.add(index);
  });
  block.attributes.forEach((_, i) => {
    if (!referenced.has(i)) problems.push(`attribute ${i} is not referenced`);
  });
  for (const key of Object.keys(block.sequenceNumberForAllocation)) {
    if (block.allocations[Number(key)] === null) problems.push(`free ordinal ${key} keeps a sequence number`);
  }
  return problems;
}

/** A deep snapshot for "the input was not mutated" checks (structuredClone keeps bigint). */
export function snapshot(block: AllocationBlock): AllocationBlock {
  return structuredClone(block);
}
