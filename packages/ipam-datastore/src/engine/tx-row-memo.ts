import { isRowSoftDeleted, isSoftDeleted, type KindName, type RowFilter } from './kinds.js';
import type { CasEngine, ReadEngine } from './cas-ops.js';
import { keyMayMatch } from './key-may-match.js';
import type { ChangedRow, RowEngine, RowStamp, StampFilter, StoredRow } from './row-engine.js';

/** What a transaction knows of a row: absent (`null`), or its revision and soft-delete mark. */
type Known = { readonly revision: bigint; readonly softDeleted: boolean } | null;

/**
 * The rows one memory or SQLite transaction has read or written, by revision (design/ipam-datastore.md,
 * "Allocation cost: fewer statements"). Between the body's first read and its commit a row it
 * read can only change by its own writes, which pass through here too: the body holds the write
 * lock throughout, or (optimistic transactions) its reads are validated under the write lock
 * before any write is applied, and a body whose reads changed is not applied at all
 * (`readsChangedBy`). The CAS check of a buffered write of a row the body read (a block it
 * updates, a handle it found absent) therefore needs no second read of that row: `applying`
 * answers it from what is known and reads only a row it never saw.
 */
export class TxRowMemo {
  private readonly known = new Map<string, Known>();
  /** The sets of rows the body listed or stamped (its reads by key are the keys of `known`). */
  private readonly ranges: { readonly kind: KindName; readonly filter: StampFilter }[] = [];

  constructor(private readonly engine: RowEngine) {}

  /** A stamp of the body's, recorded as one of its reads. */
  stamp(kind: KindName, filter: StampFilter): RowStamp {
    this.ranges.push({ kind, filter });
    return this.engine.stampRows(kind, filter);
  }

  /**
   * Whether any of `changes` (rows written by others since the body began reading) is one the body
   * read: a row it read by key (present or absent), or a row its lists or stamps may cover
   * (design/ipam-datastore.md, "Optimistic transactions"). Before any write is applied.
   */
  readsChangedBy(changes: readonly ChangedRow[]): boolean {
    for (const change of changes) {
      if (this.known.has(idOf(change.kind, change.key))) return true;
      for (const range of this.ranges) if (range.kind === change.kind && keyMayMatch(change.kind, change.key, range.filter)) return true;
    }
    return false;
  }

  /** The engine as the body's readers see it: every row read by key is remembered. */
  readonly reading: ReadEngine = {
    getRow: (kind, key) => {
      // The body's reader owns what it reads (each read is a fresh value), so the engine need not copy.
      const row = this.engine.takeRow === undefined ? this.engine.getRow(kind, key) : this.engine.takeRow(kind, key);
      this.known.set(idOf(kind, key), row === undefined ? null : { revision: row.revision, softDeleted: isRowSoftDeleted(kind, row) });
      return row;
    },
    listRows: (kind: KindName, filter: RowFilter) => {
      this.ranges.push({ kind, filter });
      return this.engine.listRows(kind, filter);
    },
  };

  /** The engine as the buffered writes are applied through it, after the body returned. */
  readonly applying: CasEngine = {
    getRow: (kind, key) => {
      const known = this.known.get(idOf(kind, key));
      if (known === undefined) return this.engine.getRow(kind, key);
      return known === null ? undefined : knownRow(this.engine, kind, key, known);
    },
    putRow: (kind, row, owned, log) => {
      this.engine.putRow(kind, row, owned, log);
      this.known.set(idOf(kind, row.key), { revision: row.revision, softDeleted: isSoftDeleted(kind, row.value) });
    },
    removeRow: (kind, key, revision) => {
      this.engine.removeRow(kind, key, revision);
      this.known.set(idOf(kind, key), null);
    },
    bumpRevision: () => this.engine.bumpRevision(),
  };
}

const idOf = (kind: KindName, key: string): string => `${kind}\u0000${key}`;

/**
 * A class rather than an object literal with a getter: V8 builds such a literal's accessor anew
 * each time, and every CAS check of a row the body read makes one (design/ipam-core.md,
 * "Allocation cost: the ninth round (2026-12-02)").
 */
class KnownRow implements StoredRow {
  constructor(
    private readonly engine: RowEngine,
    private readonly kind: KindName,
    readonly key: string,
    readonly revision: bigint,
    readonly softDeleted: boolean,
  ) {}

  get value(): Record<string, unknown> {
    const row = this.engine.getRow(this.kind, this.key);
    if (row?.revision !== this.revision) throw new Error(`${this.kind} ${this.key} changed inside its own transaction`);
    return row.value;
  }
}

/** A row known to be stored at `known.revision`; its value is read only if someone asks for it. */
function knownRow(engine: RowEngine, kind: KindName, key: string, known: NonNullable<Known>): StoredRow {
  return new KnownRow(engine, kind, key, known.revision, known.softDeleted);
}
