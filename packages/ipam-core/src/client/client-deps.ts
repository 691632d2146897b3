import {
  type AllocationBlock,
  type Datastore,
  type DatastoreTx,
  type IPAMConfig,
  NotFoundError,
  type Versioned,
} from '@ipamkit/models';
import { bumpSequenceNumber } from '../block/block-writes.js';
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
  const bumped = bumpSequenceNumber(next);
  return original.uid === undefined ? { ...bumped, revision: original.revision } : { ...bumped, revision: original.revision, uid: original.uid };
}

/** Strips revision/uid so a stored object can be handed to pure logic or `create`. */
export function unversioned<T extends object>(value: Versioned<T>): T {
  const { revision: _revision, uid: _uid, ...rest } = value;
  return rest as unknown as T;
}

export function hintKey(type: string, host: string, version: number): string {
  return `${type}:${host}:v${version}`;
}
