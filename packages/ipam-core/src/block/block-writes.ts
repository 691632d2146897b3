import type { AllocationBlock } from '@ipamkit/models';
import { cloneBlock } from './block-state.js';

/**
 * The `updateBlock` step of design/calico-ipam.md#cross-cutting-mechanics: every library write of an existing block first adds
 * one to `sequenceNumber`. The pure operations never bump; the write path calls this once per
 * `update` (not for `create`).
 */
export function bumpSequenceNumber(block: AllocationBlock): AllocationBlock {
  const next = cloneBlock(block);
  next.sequenceNumber = block.sequenceNumber + 1n;
  return next;
}

/** Makes the block unaffine (releaseBlockAffinity on a non-empty block, design/calico-ipam.md#releasing-a-block-affinity step 7). */
export function clearAffinity(block: AllocationBlock): AllocationBlock {
  const next = cloneBlock(block);
  delete next.affinity;
  delete next.affinityClaimTime;
  return next;
}
