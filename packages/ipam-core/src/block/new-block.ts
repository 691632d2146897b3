import type { AllocationBlock, BlockOwner } from '@ipamkit/models';
import { InvalidBlockArgumentError } from './block-errors.js';
import { formatWholeSeconds, makeAttribute } from './block-state.js';
import type { HostReservedAttr } from './host-reserved-attr.js';
import { formatBlockInterval } from './ip-address.js';
import { blockRange, blockSize } from './ordinals.js';

export interface NewBlockArgs {
  /** Block CIDR; masked to canonical form. */
  cidr: string;
  /** Affinity of the new block; absent for an unaffine block. */
  owner?: BlockOwner | undefined;
  /** When the affinity was claimed; defaults to `now`. Ignored without `owner`. */
  claimTime?: Date | undefined;
  now: Date;
  /** Ordinals to pre-allocate at both ends (Windows); see design/calico-ipam.md#new-blocks */
  hostReserved?: HostReservedAttr | undefined;
}

/** Unix time in nanoseconds, the seed of a new block's sequence number. */
export function unixNanos(date: Date): bigint {
  return BigInt(date.getTime()) * 1_000_000n;
}

/**
 * A fresh block (design/calico-ipam.md#new-blocks): every ordinal free in ascending order, `sequenceNumber` seeded
 * from `now` in Unix nanoseconds (so a deleted-and-recreated block never reuses old numbers), and
 * host-reserved ordinals pre-allocated to one shared attribute without per-ordinal sequence numbers.
 * The block is meant for `create`, which does not bump the sequence number.
 */
export function newBlock(args: NewBlockArgs): AllocationBlock {
  const n = blockSize({ cidr: args.cidr });
  const start = args.hostReserved?.startOfBlock ?? 0;
  const end = args.hostReserved?.endOfBlock ?? 0;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < 0 || start + end > n) {
    throw new InvalidBlockArgumentError(
      `host-reserved ordinals (start ${start}, end ${end}) do not fit a block of ${n} addresses`,
    );
  }
  const block: AllocationBlock = {
    cidr: formatBlockInterval(blockRange({ cidr: args.cidr })),
    allocations: new Array<number | null>(n).fill(null),
    unallocated: [],
    attributes: [],
    sequenceNumber: unixNanos(args.now),
    sequenceNumberForAllocation: {},
    deleted: false,
  };
  if (args.owner !== undefined) {
    block.affinity = { ...args.owner };
    block.affinityClaimTime = formatWholeSeconds(args.claimTime ?? args.now);
  }
  for (let o = start; o < n - end; o += 1) block.unallocated.push(o);
  if (args.hostReserved !== undefined && start + end > 0) {
    block.attributes.push(makeAttribute(args.hostReserved.handle, { note: args.hostReserved.note }));
    for (let o = 0; o < start; o += 1) block.allocations[o] = 0;
    for (let o = n - end; o < n; o += 1) block.allocations[o] = 0;
  }
  return block;
}
