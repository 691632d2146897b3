import {
  type AllocationBlock,
  type Datastore,
  type DatastoreTx,
  type IPAMConfig,
  NotFoundError,
  type Versioned,
} from '@ipamkit/models';
import { garbageCollectCooldown } from '../block/garbage-collect-cooldown.js';
import type { AssignContextCache } from './assign-context-cache.js';
import type { Clock } from './client-types.js';
import type { FirstWave } from './read-assign-context.js';

/** What every operation of the client needs; built once by createIpamClient. */
export interface ClientDeps {
  readonly ds: Datastore;
  readonly clock: Clock;
  readonly windowsHost: boolean;
  /**
   * Per (owner, family): the affine block CIDRs the last AutoAssign visited, in order. Lets the
   * next AutoAssign read those blocks in its first wave (design/ipam-core.md, "Round trips").
   * Only an optimisation: every read is validated against the stored affinities and blocks.
   */
  readonly affineHints: Map<string, string[]>;
  /**
   * The assignment context kept between AutoAssign calls and re-validated by version stamps inside
   * each transaction (design/ipam-core.md, "The cached assignment context"); absent: read every time.
   */
  readonly contextCache?: AssignContextCache | undefined;
  /** First waves read ahead of an AutoAssign, by owner, family and use (design/ipam-core.md, "Read-ahead"); taken once. */
  readonly readAhead: Map<string, { readonly wave: FirstWave; readonly startedAt: number }>;
}

/** The reads shared by a Datastore and a transaction view. */
export type Reader = Pick<DatastoreTx, 'blocks' | 'affinities' | 'handles' | 'ipamConfig' | 'ipPools' | 'ipReservations' | 'nodes'>;

/** `undefined` for a missing object (models' helper, re-exported for the core's modules). */
export { orUndefined } from '@ipamkit/models';

/** A `.catch` for a delete or a read whose object may be gone already, which is fine. */
export function ignoreNotFound(err: unknown): void {
  if (!(err instanceof NotFoundError)) throw err;
}

/**
 * Calico's blockFromBackend: the block as read, with the cooldown GC applied (design/calico-ipam.md#cross-cutting-mechanics).
 * The stored object is never touched; `block` is a fresh value when anything changed.
 */
export function collectedBlock(stored: AllocationBlock, config: IPAMConfig, now: Date): { block: AllocationBlock; changed: boolean } {
  return garbageCollectCooldown(stored, { cooldownSeconds: config.ipCooldownSeconds, now });
}

/** `next` as an update of `original`: sequence number bumped once, CAS on the revision read (design/calico-ipam.md#cross-cutting-mechanics updateBlock). */
export function asUpdate(original: Versioned<AllocationBlock>, next: AllocationBlock): Versioned<AllocationBlock> {
  // `bumpSequenceNumber(next)` and the revision, without copying next's arrays and maps: the value
  // goes straight to a write, which copies or encodes it, and no block operation changes a block
  // it did not clone (design/ipam-core.md, "Allocation cost: the ninth round (2026-12-02)"). The
  // fields and their order are cloneBlock's, so the written text is as before.
  const written: AllocationBlock = {
    cidr: next.cidr,
    allocations: next.allocations,
    unallocated: next.unallocated,
    attributes: next.attributes,
    sequenceNumber: next.sequenceNumber + 1n,
    sequenceNumberForAllocation: next.sequenceNumberForAllocation,
    deleted: next.deleted,
  };
  if (next.affinity !== undefined) written.affinity = { ...next.affinity };
  if (next.affinityClaimTime !== undefined) written.affinityClaimTime = next.affinityClaimTime;
  return original.uid === undefined ? Object.assign(written, { revision: original.revision }) : Object.assign(written, { revision: original.revision, uid: original.uid });
}

/** Strips revision/uid so a stored object can be handed to pure logic or `create`. */
export function unversioned<T extends object>(value: Versioned<T>): T {
  const { revision: _revision, uid: _uid, ...rest } = value;
  return rest as unknown as T;
}

export function hintKey(type: string, host: string, version: number): string {
  return `${type}:${host}:v${version}`;
}
