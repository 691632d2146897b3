import { type AllocationBlock, type BlockOwner, formatAddress } from '@ipamkit/models';
import type { ReservationFilter } from '../reservations/reservation-filter.js';
import { InvalidBlockArgumentError } from './block-errors.js';
import { assertAffinity } from './block-owner.js';
import { cloneBlock, findOrAddAttribute } from './block-state.js';
import { blockRange } from './ordinals.js';
import { hasShortAllocations } from './short-block.js';

export interface AutoAssignInBlockArgs {
  /** How many addresses to take at most. */
  num: number;
  handleId?: string | undefined;
  /** Active owner attributes (`secondary` on the wire). */
  attrs?: Record<string, string> | undefined;
  /**
   * Strict-affinity check: when set, the block must be affine to exactly this owner, else
   * AffinityMismatchError. Leave unset when borrowing or when strict affinity is off.
   */
  requiredOwner?: BlockOwner | undefined;
  /** IPReservations: reserved addresses are skipped and keep their place at the head of the FIFO. */
  reservations?: ReservationFilter | undefined;
}

export interface AutoAssignInBlockResult {
  /** The new block; the same object as the input when nothing was taken. */
  block: AllocationBlock;
  /** Bare addresses, in allocation (FIFO) order. */
  ips: string[];
  /** The same addresses with the block prefix (`10.0.0.5/26`), as AutoAssign reports them. */
  ipNets: string[];
  ordinals: number[];
}

/**
 * Takes up to `num` free addresses from the head of the FIFO (design/calico-ipam.md#assigning-inside-a-block). Every taken
 * ordinal points at one shared attribute and is stamped with the block's current (pre-write)
 * `sequenceNumber`; the caller's write path then bumps the block number by one. Zero addresses
 * means the block is full (not an error); a block with a short allocations array always gives
 * none. The per-handle cap lives in the handle, not the block
 * (see `incrementHandleCount`).
 */
export function autoAssignInBlock(block: AllocationBlock, args: AutoAssignInBlockArgs): AutoAssignInBlockResult {
  if (!Number.isInteger(args.num) || args.num < 0) {
    throw new InvalidBlockArgumentError(`cannot assign ${args.num} addresses`);
  }
  assertAffinity(block, args.requiredOwner);
  // Never allocate from a block with a short allocations array: it is corrupt, "full" to us.
  if (hasShortAllocations(block)) return { block, ips: [], ipNets: [], ordinals: [] };
  const range = blockRange(block);
  const taken: number[] = [];
  const skipped: number[] = [];
  let cursor = 0;
  for (; cursor < block.unallocated.length && taken.length < args.num; cursor += 1) {
    const ordinal = block.unallocated[cursor];
    if (ordinal === undefined) continue;
    if (args.reservations?.matchesValue(range.version, range.base + BigInt(ordinal)) === true) skipped.push(ordinal);
    else taken.push(ordinal);
  }
  if (taken.length === 0) return { block, ips: [], ipNets: [], ordinals: [] };
  const next = cloneBlock(block);
  const index = findOrAddAttribute(next, args.handleId, args.attrs);
  for (const ordinal of taken) {
    next.allocations[ordinal] = index;
    next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
  }
  // Reserved ordinals we walked past stay at the head, in their order, ahead of the untouched tail.
  next.unallocated = [...skipped, ...block.unallocated.slice(cursor)];
  // Built by `push`, not `map`: see design/ipam-core.md, "Arrays of one elements kind".
  const ips: string[] = [];
  const ipNets: string[] = [];
  for (const ordinal of taken) {
    const ip = formatAddress(range.version, range.base + BigInt(ordinal));
    ips.push(ip);
    ipNets.push(`${ip}/${range.prefixLength}`);
  }
  return { block: next, ips, ipNets, ordinals: taken };
}
