import type { AllocationBlock, BlockOwner } from '@ipamkit/models';
import { AddressInUseError } from './block-errors.js';
import { assertAffinity } from './block-owner.js';
import { cloneBlock, findOrAddAttribute, sanitizeHandle } from './block-state.js';
import { ordinalOf } from './ordinals.js';
import { assertFullAllocations } from './short-block.js';

export interface AssignInBlockArgs {
  ip: string;
  handleId?: string | undefined;
  attrs?: Record<string, string> | undefined;
  /** Strict-affinity check, as in autoAssignInBlock. */
  requiredOwner?: BlockOwner | undefined;
}

/**
 * Allocates one named address (design/calico-ipam.md#assigning-inside-a-block). Throws AddressInUseError when the ordinal is
 * allocated, host-reserved or in cooldown (the error carries the existing handle so AssignIP can
 * treat a same-handle repeat as success), AddressNotInBlockError, AffinityMismatchError, or
 * CorruptBlockError (a short allocations array: never allocated from).
 * IPReservations are deliberately not consulted, as in Calico. The ordinal is stamped with the
 * current (pre-write) block sequence number and removed from wherever it sits in the FIFO.
 */
export function assignInBlock(block: AllocationBlock, args: AssignInBlockArgs): { block: AllocationBlock; ordinal: number } {
  assertAffinity(block, args.requiredOwner);
  assertFullAllocations(block);
  const ordinal = ordinalOf(block, args.ip);
  const existing = block.allocations[ordinal];
  if (existing !== null && existing !== undefined) {
    const attribute = block.attributes[existing];
    throw new AddressInUseError(args.ip, sanitizeHandle(attribute?.handleId), attribute?.releasedAt !== undefined);
  }
  const next = cloneBlock(block);
  next.allocations[ordinal] = findOrAddAttribute(next, args.handleId, args.attrs);
  next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
  const position = next.unallocated.indexOf(ordinal);
  if (position >= 0) next.unallocated.splice(position, 1);
  return { block: next, ordinal };
}
