import type { BlockOrdinals } from '@ipamkit/models';
import type { AsyncMutex } from './async-mutex.js';
import type { KindName, RowFilter } from './kinds.js';

/** A stored object: the model value without revision or uid, and the revision it was written at. */
export interface StoredRow {
  readonly key: string;
  readonly revision: bigint;
  readonly value: Record<string, unknown>;
  /**
   * Whether the row is soft-deleted, when the engine knows without decoding `value` (SQLite keeps
   * it in a column); absent, it is computed from `value`. Lets a CAS check skip the decode.
   */
  readonly softDeleted?: boolean;
  /**
   * The value for reading a few plain fields, without a private copy or a lossless decode: memory
   * hands out the stored object (never to be changed or kept), SQLite a native `JSON.parse` of the
   * row (integers past 2^53, such as sequence numbers, may be rounded). Absent: use `value`.
   */
  peek?(): Readonly<Record<string, unknown>>;
  /**
   * True when `value` is the reader's own object, made for this row alone (SQLite's rows: a fresh
   * decode, a copy or an entry handed over), so a read may add the revision to it instead of
   * copying it (design/ipam-datastore.md, "Paged reads of blocks with no allocation", and
   * design/ipam-core.md, "Allocation cost: the ninth round (2026-12-02)"). Absent: a copy.
   */
  readonly ownValue?: boolean;
  /**
   * A block row's `BlockOrdinals` when the engine can give them without `peek()` and the checks of
   * `blockOrdinalsOf` (SQLite: a block with no allocation, whose text proves its arrays valid),
   * as private arrays; undefined otherwise, and then `peek()` is used.
   */
  ordinals?(): BlockOrdinals | undefined;
}

/** The rows a stamp covers: a filter as for listing, or one key. */
export interface StampFilter extends RowFilter {
  readonly key?: string;
}

/** A set of rows summed up: how many, and the highest revision among them (0 when none). */
export interface RowStamp {
  readonly count: number;
  readonly maxRevision: bigint;
}

/** One entry of the change log that watches replay. */
export interface ChangeRecord {
  readonly revision: bigint;
  readonly kind: KindName;
  readonly key: string;
  readonly type: 'added' | 'modified' | 'deleted';
  /** The new value, or for `deleted` the last live value. */
  readonly value: Record<string, unknown>;
  /** The revision `value` was written at. */
  readonly valueRevision: bigint;
}

/** A row some write changed: what a transaction's validation compares with what its body read. */
export interface ChangedRow {
  readonly kind: KindName;
  readonly key: string;
}

/**
 * Optional on a `RowEngine`: transaction bodies read outside any transaction and lock, and the
 * write lock is taken only to validate those reads and apply the writes (design/ipam-datastore.md,
 * "Optimistic transactions").
 */
export interface OptimisticEngine {
  /**
   * Starts a transaction body's reads and returns the revision they start from: each read the body
   * makes until `endOptimisticReads` sees the state of that revision or of a later one.
   */
  beginOptimisticReads(): bigint;
  endOptimisticReads(): void;
  /**
   * Every row written after `revision`, up to the newest revision when this is called (inside
   * `beginWrite`: every write until the commit); `undefined` when the engine cannot name them all
   * (its log was compacted past `revision`, or holds a write of no row it can name, or too many).
   */
  changedSince(revision: bigint): readonly ChangedRow[] | undefined;
}

/**
 * The storage primitive under the memory and SQLite backends: rows, one global revision counter
 * and a change log, with synchronous calls. `engine-datastore.ts` builds the `Datastore`
 * semantics (CAS, soft delete, watch, transact) on top of it once for both backends.
 *
 * Calls happen between `beginRead`/`endRead` or `beginWrite`/`commit`|`rollback`, never nested.
 * Returned values are fresh copies the caller may keep.
 */
export interface RowEngine {
  beginRead(): void;
  endRead(): void;
  beginWrite(): void;
  commit(): void;
  rollback(): void;
  /** The row under `key`, soft-deleted or not. */
  getRow(kind: KindName, key: string): StoredRow | undefined;
  /**
   * Optional: `getRow` for a reader that takes the value over, inside a write transaction: the
   * engine may hand out, without copying it, a value its own write memoised, and then forgets it
   * (SQLite's DecodedValueCache.take).
   */
  takeRow?(kind: KindName, key: string): StoredRow | undefined;
  /** Live (not soft-deleted) rows matching `filter`, in key order. */
  listRows(kind: KindName, filter: RowFilter): StoredRow[];
  /** Live rows matching `filter` whose key is after `after` (all when absent), in key order, at most `limit`. */
  listRowsPage(kind: KindName, filter: RowFilter, after: string | undefined, limit: number): StoredRow[];
  /**
   * Every row (soft-deleted ones too) of `kind` matching `filter`, or the one row under
   * `filter.key`, summed up as its count and highest revision: a version stamp of that set, since
   * revisions only grow (design/ipam-datastore.md, "Version stamps").
   */
  stampRows(kind: KindName, filter: StampFilter): RowStamp;
  /**
   * Stores `row` and logs the write's change-log entry at `row.revision`: `added` or `modified`
   * carry `row.value`, `deleted` (a soft delete) the value the row held before; none for a
   * soft-deleted create. The engine writes the entry itself, so it may store a value once for both
   * and copy a previous value without decoding it (SQLite: design/ipam-datastore.md, "Values
   * stored once"). `owned`: the engine holds the only reference to `row.value` (a transaction's
   * buffered write), so an engine may keep it without copying.
   */
  putRow(kind: KindName, row: StoredRow, owned?: boolean, log?: ChangeRecord['type']): void;
  /**
   * Optional: a private copy of `value` for a later `putRow(…, owned)`, made the way this engine
   * can keep it without another walk (SQLite: the decode cache's exact copy). Absent: `copyValue`.
   */
  ownedCopy?(kind: KindName, value: Record<string, unknown>): Record<string, unknown>;
  /** Deletes the row under `key` (present) and logs a `deleted` entry at `revision` with its last value. */
  removeRow(kind: KindName, key: string, revision: bigint): void;
  /** Advances the global revision and returns the new value (inside a write). */
  bumpRevision(): bigint;
  currentRevision(): bigint;
  /** Changes of `kind` with revision > `after`, oldest first, at most `limit`. */
  changesSince(kind: KindName, after: bigint, limit: number): ChangeRecord[];
  /** Changes at or below this revision are no longer kept: a watch from before it has expired. */
  compactedRevision(): bigint;
  /**
   * Held around every write transaction (`beginWrite` … `commit`|`rollback`, a whole `transact`
   * body included) and shared by every engine on the same storage in this process (SQLite: one per
   * file), so that no engine starts a write, and waits synchronously for the lock, while another
   * engine of the process holds it across an await. Absent: the engine's storage is its own
   * (memory). See design/ipam-datastore.md, "One writer per file in a process".
   */
  readonly writerMutex?: AsyncMutex | undefined;
  /** Optional: optimistic transactions (SQLite); absent, a body runs inside `beginWrite` (memory). */
  readonly optimistic?: OptimisticEngine | undefined;
  /** Resolves early when this process commits a change (memory); absent: watches poll. */
  subscribe?(listener: () => void): () => void;
  /** Maps a third-party error to the models' taxonomy; called once, at the datastore boundary. */
  translateError(err: unknown): unknown;
  close(): void;
}
