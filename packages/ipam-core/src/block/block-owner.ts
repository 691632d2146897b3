import type { AllocationBlock, BlockOwner } from '@ipamkit/models';
import { AffinityMismatchError } from './block-errors.js';

/** The wire form `"<type>:<host>"` of an owner. */
export function affinityString(owner: BlockOwner): string {
  return `${owner.type}:${owner.host}`;
}

/** Whether the block's affinity is exactly `owner` (type and host). */
export function hostOwnsBlock(block: Pick<AllocationBlock, 'affinity'>, owner: BlockOwner): boolean {
  return block.affinity?.type === owner.type && block.affinity.host === owner.host;
}

/**
 * The strict-affinity check of design/calico-ipam.md#assigning-inside-a-block step 1: with `requiredOwner` set, the block
 * must be affine to exactly that owner. Throws AffinityMismatchError.
 */
export function assertAffinity(block: AllocationBlock, requiredOwner: BlockOwner | undefined): void {
  if (requiredOwner === undefined || hostOwnsBlock(block, requiredOwner)) return;
  throw new AffinityMismatchError(
    block.cidr,
    affinityString(requiredOwner),
    block.affinity === undefined ? undefined : affinityString(block.affinity),
  );
}
