import type { AllocationBlock } from './resources/allocation-block.js';
import type { AffinityKey, BlockAffinity } from './resources/block-affinity.js';
import type { AffinityType } from './resources/allocation-block.js';
import type { IPVersion } from './resources/intended-use.js';
import type { IPAMConfig } from './resources/ipam-config.js';
import type { IPAMHandle } from './resources/ipam-handle.js';
import type { IPPool } from './resources/ip-pool.js';
import type { IPReservation } from './resources/ip-reservation.js';
import type { Namespace } from './resources/namespace.js';
import type { Node } from './resources/node.js';

/**
 * A stored object with the revision it was read at. `revision` is opaque to callers (a Kubernetes
 * resourceVersion, an etcd mod revision, a SQLite row revision) and is what compare-and-swap
 * writes compare. `uid` is set by backends that have one (Kubernetes).
 */
export type Versioned<T> = T & { readonly revision: string; readonly uid?: string };

export type WatchEvent<T> =
  | { readonly type: 'added' | 'modified'; readonly key: string; readonly object: Versioned<T>; readonly revision: string }
  | { readonly type: 'deleted'; readonly key: string; readonly previous?: Versioned<T>; readonly revision: string }
  | { readonly type: 'bookmark'; readonly revision: string };

export interface WatchOptions {
  /** Deliver every change after this revision (exclusive). Absent: changes from now on. */
  readonly fromRevision?: string;
  /** Ends the stream. */
  readonly signal?: AbortSignal;
}

/**
 * List-then-watch, for controllers. `listWithRevision` returns a consistent snapshot and the
 * revision it was taken at; `watch({ fromRevision })` then delivers every later change in order.
 * Soft-deleted rows are reported as `deleted`, never as objects. A revision that is too old makes
 * the stream throw `WatchExpiredError`: list again.
 */
export interface Watchable<T> {
  listWithRevision(): Promise<{ items: Versioned<T>[]; revision: string }>;
  watch(options?: WatchOptions): AsyncIterable<WatchEvent<T>>;
}

/** The user-facing stores (pools, reservations, nodes, namespaces), keyed by name. */
export interface ResourceStore<T extends { name: string }> extends Watchable<T> {
  create(obj: T): Promise<Versioned<T>>;
  get(name: string): Promise<Versioned<T>>;
  list(): Promise<Versioned<T>[]>;
  update(obj: Versioned<T>): Promise<Versioned<T>>;
  /** With a revision: compare-and-delete. Without: unconditional. */
  delete(name: string, revision?: string): Promise<void>;
}

export interface BlockListOptions {
  readonly ipVersion?: IPVersion;
}

export interface BlockPageOptions extends BlockListOptions {
  /** The `continue` token of the previous page; absent: the first page. */
  readonly continue?: string;
  /** At most this many blocks per page (a positive integer). */
  readonly limit: number;
}

/** One page of a paged block listing; `continue` is absent on the last page. */
export interface BlockPage {
  readonly items: Versioned<AllocationBlock>[];
  readonly continue?: string;
}

/**
 * What a count of addresses needs of a block: its CIDR and the two ordinal arrays, without the
 * attributes and sequence numbers whose lossless decoding is most of a block's read cost.
 */
export interface BlockOrdinals {
  readonly cidr: string;
  readonly allocations: readonly (number | null)[];
  readonly unallocated: readonly number[];
}

/** One page of `listOrdinalsPage`; `continue` is absent on the last page. */
export interface BlockOrdinalsPage {
  readonly items: BlockOrdinals[];
  readonly continue?: string;
}

/** Blocks, keyed by canonical CIDR. Every write is compare-and-swap on `revision`. */
export interface BlockStore extends Watchable<AllocationBlock> {
  get(cidr: string): Promise<Versioned<AllocationBlock>>;
  /** Soft-deleted blocks are never returned. */
  list(options?: BlockListOptions): Promise<Versioned<AllocationBlock>[]>;
  /**
   * The live blocks in key order, one page at a time, so a reader of every block need not hold
   * them all at once. Optional: a backend without it is read with `list`. Each page is read
   * consistently; whether the pages together are one snapshot is the backend's (memory and SQLite:
   * no, a block written between two pages is seen as it is when its page is read; etcd: yes, every
   * page is read at the first page's revision). A `continue` token is opaque.
   */
  listPage?(options: BlockPageOptions): Promise<BlockPage>;
  /** As `listPage` (same order, tokens and consistency), but only each block's `BlockOrdinals`. */
  listOrdinalsPage?(options: BlockPageOptions): Promise<BlockOrdinalsPage>;
  create(block: AllocationBlock): Promise<Versioned<AllocationBlock>>;
  update(block: Versioned<AllocationBlock>): Promise<Versioned<AllocationBlock>>;
  /** Compare-and-delete on the block's revision (Kubernetes: soft delete, then delete by UID). */
  delete(block: Versioned<AllocationBlock>): Promise<void>;
}

export interface AffinityListOptions {
  readonly host?: string;
  readonly type?: AffinityType;
  readonly ipVersion?: IPVersion;
}

/** Block affinities, keyed by (host, type, cidr). Host-scoped listing is indexed. */
export interface AffinityStore extends Watchable<BlockAffinity> {
  get(key: AffinityKey): Promise<Versioned<BlockAffinity>>;
  /** Soft-deleted affinities are never returned; with no `type`, both types are listed. */
  list(options?: AffinityListOptions): Promise<Versioned<BlockAffinity>[]>;
  create(affinity: BlockAffinity): Promise<Versioned<BlockAffinity>>;
  update(affinity: Versioned<BlockAffinity>): Promise<Versioned<BlockAffinity>>;
  delete(affinity: Versioned<BlockAffinity>): Promise<void>;
}

/** Handles, keyed by handle ID (case kept). */
export interface HandleStore extends Watchable<IPAMHandle> {
  get(handleId: string): Promise<Versioned<IPAMHandle>>;
  /** Soft-deleted handles are never returned. */
  list(): Promise<Versioned<IPAMHandle>[]>;
  create(handle: IPAMHandle): Promise<Versioned<IPAMHandle>>;
  update(handle: Versioned<IPAMHandle>): Promise<Versioned<IPAMHandle>>;
  delete(handle: Versioned<IPAMHandle>): Promise<void>;
}

/** The IPAM config singleton (`default`). `get` throws NotFoundError when none is stored. */
export interface IpamConfigStore {
  get(): Promise<Versioned<IPAMConfig>>;
  create(config: IPAMConfig): Promise<Versioned<IPAMConfig>>;
  update(config: Versioned<IPAMConfig>): Promise<Versioned<IPAMConfig>>;
  delete(revision?: string): Promise<void>;
}

/** One buffered write of a transaction; preconditions are checked at commit. */
export type TxWrite =
  | { readonly op: 'create'; readonly kind: 'block'; readonly value: AllocationBlock }
  | { readonly op: 'update' | 'delete'; readonly kind: 'block'; readonly value: Versioned<AllocationBlock> }
  | { readonly op: 'create'; readonly kind: 'affinity'; readonly value: BlockAffinity }
  | { readonly op: 'update' | 'delete'; readonly kind: 'affinity'; readonly value: Versioned<BlockAffinity> }
  | { readonly op: 'create'; readonly kind: 'handle'; readonly value: IPAMHandle }
  | { readonly op: 'update' | 'delete'; readonly kind: 'handle'; readonly value: Versioned<IPAMHandle> };

/**
 * What a transaction can stamp: a whole small kind, one node, or one owner's affinities of one
 * family (the read of `affinities.list({ host, type, ipVersion })`).
 */
export type StampTarget =
  | { readonly kind: 'ipPools' }
  | { readonly kind: 'ipReservations' }
  | { readonly kind: 'ipamConfig' }
  | { readonly kind: 'node'; readonly name: string }
  | { readonly kind: 'affinities'; readonly host: string; readonly type: AffinityType; readonly ipVersion: IPVersion };

/**
 * A stamp is an opaque string naming the state of its target as the transaction reads it: two
 * stamps of one target on one datastore are equal only if the target's readable state (every
 * object and its revision) is the same. A stamp is one of the transaction's reads and exactly as
 * current as a read of the same target would be: where the backend proves a body's reads at
 * commit, a stamped state that changed before the commit fails it with ConflictError. So values a
 * caller kept under a stamp equal to the one it reads now are the values it would read now.
 */
export interface TxStamps {
  get(target: StampTarget): Promise<string>;
}

/**
 * The view a transaction body gets: reads see one consistent state, writes are buffered and
 * committed all-or-none when the body returns. A failed precondition at commit throws
 * ConflictError / AlreadyExistsError / NotFoundError and writes nothing.
 */
export interface DatastoreTx {
  /**
   * Version stamps of the state a caller may keep between transactions (design/ipam-datastore.md,
   * "Version stamps").
   */
  readonly stamps: TxStamps;
  readonly blocks: Pick<BlockStore, 'get' | 'list'>;
  readonly affinities: Pick<AffinityStore, 'get' | 'list'>;
  readonly handles: Pick<HandleStore, 'get'>;
  readonly ipamConfig: Pick<IpamConfigStore, 'get'>;
  readonly ipPools: Pick<ResourceStore<IPPool>, 'list'>;
  readonly ipReservations: Pick<ResourceStore<IPReservation>, 'list'>;
  readonly nodes: Pick<ResourceStore<Node>, 'get'>;
  write(write: TxWrite): void;
}

/**
 * What a caller knows of a transaction before it runs, so that a backend can plan its reads
 * (design/ipam-datastore.md, "Transactions that expect their handles"). Never a precondition:
 * a body reads the same state whatever it says.
 */
export interface TransactOptions {
  /**
   * The handles the body reads are expected to exist (a release), not to be new (an assignment):
   * a backend that would otherwise take an unseen handle to be absent reads it instead.
   */
  readonly handlesExist?: boolean;
}

export type DatastoreKind = 'memory' | 'sqlite' | 'etcd' | 'kubernetes';

/** Everything IPAM stores or reads (design/architecture.md#public-api, design/calico-stored-formats.md#backend-operations). */
export interface Datastore {
  readonly kind: DatastoreKind;
  readonly ipPools: ResourceStore<IPPool>;
  readonly ipReservations: ResourceStore<IPReservation>;
  readonly nodes: ResourceStore<Node>;
  readonly namespaces: ResourceStore<Namespace>;
  readonly blocks: BlockStore;
  readonly affinities: AffinityStore;
  readonly handles: HandleStore;
  readonly ipamConfig: IpamConfigStore;
  /**
   * Present on backends that can write several objects atomically (memory, SQLite, etcd). Runs
   * `body` against one consistent view and commits its writes all-or-none; returns what the body
   * returned. SQLite runs the whole body in one `BEGIN IMMEDIATE` transaction.
   */
  readonly transact?: <R>(body: (tx: DatastoreTx) => Promise<R>, options?: TransactOptions) => Promise<R>;
  /** Back-fills the host-scoping labels of `node`'s affinities (Kubernetes); a no-op elsewhere. */
  upgradeHost(node: string): Promise<void>;
  close(): Promise<void>;
}
