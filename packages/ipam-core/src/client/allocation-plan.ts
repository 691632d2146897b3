import { type AllocationBlock, DEFAULT_MAX_BLOCKS_PER_HOST, definedFields, type IPVersion, type Versioned } from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { autoAssignInBlock } from '../block/take-free-addresses.js';
import type { AllocationChange, HandleRef } from './block-handle-writes.js';
import { collectedBlock } from './client-deps.js';
import type { IPAMAssignments } from './client-types.js';
import type { AssignContext, AssignRequest } from './read-assign-context.js';

// The pure decisions of AutoAssign (design/ipam-core.md, "AutoAssign flow"): no reads, no writes.
// The per-family flow in auto-assign-family.ts does the I/O around them.

/** What one family of an AutoAssign asks for. */
export interface AllocationWant {
  readonly num: number;
  readonly attrs: Record<string, string> | undefined;
  readonly handle: HandleRef | undefined;
}

/** Addresses taken from one block, not yet persisted. */
export interface BlockTake extends AllocationChange {
  /** Block-masked addresses, e.g. `10.0.0.5/26`. */
  readonly ipNets: string[];
  /** The sequence number each address is stamped with (the block's, before the write bumps it). */
  readonly sequenceNumber: bigint;
}

/** Affine blocks visited at most per hint list (design/ipam-core.md, "Round trips"). */
export const MAX_HINTED_BLOCKS = 8;

/** design/calico-ipam.md#autoassign step 7: the smaller of the non-zero caps, default 20. */
export function blockCap(configMax: number, requestMax: number): number {
  let cap: number;
  if (configMax > 0 && requestMax > 0 && requestMax > configMax) cap = configMax;
  else if (requestMax === 0) cap = configMax;
  else cap = requestMax;
  return cap === 0 ? DEFAULT_MAX_BLOCKS_PER_HOST : cap;
}

/**
 * Up to `num` addresses from `stored` (cooldown collected first), or undefined when it has none
 * to give. `affinityCheck` asks for the strict-affinity owner check.
 */
export function takeFromBlock(
  stored: Versioned<AllocationBlock>,
  ctx: AssignContext,
  req: AssignRequest,
  want: AllocationWant,
  num: number,
  affinityCheck: boolean,
  now: Date,
): BlockTake | undefined {
  const { block } = collectedBlock(stored, ctx.config, now);
  const result = autoAssignInBlock(block, {
    num,
    reservations: ctx.reservations,
    ...definedFields({ handleId: req.handleId, attrs: want.attrs }),
    ...(affinityCheck ? { requiredOwner: req.owner } : {}),
  });
  if (result.ips.length === 0) return undefined;
  return { original: stored, next: result.block, count: result.ips.length, ipNets: result.ipNets, sequenceNumber: block.sequenceNumber };
}

/** What a family has assigned so far; each address beside its sequence number. */
export class FamilyProgress {
  readonly ips: string[] = [];
  readonly sequenceNumbers: bigint[] = [];
  readonly msgs = new Set<string>();

  add(ipNets: readonly string[], sequenceNumber: bigint): void {
    for (const ip of ipNets) {
      this.ips.push(ip);
      this.sequenceNumbers.push(sequenceNumber);
    }
  }

  addTakes(takes: readonly BlockTake[]): void {
    for (const take of takes) this.add(take.ipNets, take.sequenceNumber);
  }
}

/** The family's result as AutoAssign reports it. */
export function familyAssignments(
  fam: { readonly version: IPVersion; readonly num: number; readonly hostReserved: HostReservedAttr | undefined },
  progress: Pick<FamilyProgress, 'ips' | 'sequenceNumbers' | 'msgs'>,
): IPAMAssignments {
  return {
    ips: [...progress.ips],
    sequenceNumbers: [...progress.sequenceNumbers],
    ipVersion: fam.version,
    numRequested: fam.num,
    msgs: [...progress.msgs],
    ...(fam.hostReserved === undefined ? {} : { hostReservedAttr: fam.hostReserved }),
  };
}
