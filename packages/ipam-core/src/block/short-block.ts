import type { AllocationBlock } from '@ipamkit/models';
import { CorruptBlockError } from './block-errors.js';
import { blockRange } from './ordinals.js';

/**
 * True when the block's `allocations` array has fewer entries than the block has addresses. The
 * decoders keep such a block as stored; the core treats it as corrupt and never allocates from it
 * (design/ipam-core.md, "Blocks with a short allocations array").
 */
export function hasShortAllocations(block: { readonly cidr: string; readonly allocations: readonly unknown[] }): boolean {
  return BigInt(block.allocations.length) < blockRange(block).size;
}

/** Throws CorruptBlockError for a block with a short `allocations` array. */
export function assertFullAllocations(block: Pick<AllocationBlock, 'cidr' | 'allocations'>): void {
  if (hasShortAllocations(block)) throw new CorruptBlockError(block.cidr, block.allocations.length, blockRange(block).size);
}
