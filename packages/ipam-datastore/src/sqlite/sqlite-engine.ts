import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { BlockOrdinals } from '@ipamkit/models';
import { copyValue } from '../engine/copy-value.js';
import { KIND_NAMES, KINDS, isSoftDeleted, type KindName, type RowFilter } from '../engine/kinds.js';
import type { ChangeRecord, RowEngine, RowStamp, StampFilter, StoredRow } from '../engine/row-engine.js';
import { decodedAsIs, decodedCopy } from './decoded-copy.js';
import { DecodedValueCache } from './decoded-value-cache.js';
import { decodeFreeBlockText, freeBlockOrdinals } from './free-block-text.js';
import { StampMemo } from './stamp-memo.js';
import { decodeValue, encodeExact, encodeValue } from './row-codec.js';
import { PreparedStatements } from './prepared-statements.js';
import { TABLES } from './schema.js';
import { translateSqliteError } from './translate-sqlite-error.js';
import type { WriterMutexLease } from './file-writer-mutex.js';
import { DatastoreReadOnlyError } from '../errors.js';
import type { AsyncMutex } from '../engine/async-mutex.js';

export interface SqliteEngineOptions {
  /** Change-log entries kept for watches; older revisions expire. */
  readonly changeLogRetention: number;
  /** The path the file was opened by, for messages. */
  readonly path: string;
  /**
   * This handle's lease on the file's writer mutex, released on close; `undefined` for a read-only
   * handle, whose `beginWrite` refuses.
   */
  readonly writer: WriterMutexLease | undefined;
  /** See `SqliteDatastoreOptions.walTruncatePages`; `undefined` leaves checkpoints to SQLite. */
  readonly walTruncatePages?: number;
}

/** A WAL file's header, and each frame's header before its page (SQLite's WAL format). */
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

interface ObjectRow {
  key: string;
  revision: bigint;
  deleted: bigint;
  value: string;
}

/**
 * A row as read: the value is decoded on first use, so a CAS check that only compares the revision
 * (and the soft-delete column) never parses the JSON.
 */
class SqliteRow implements StoredRow {
  private decoded: Record<string, unknown> | undefined;

  constructor(
    private readonly kind: KindName,
    private readonly row: ObjectRow,
    private readonly cache: DecodedValueCache,
    /**
     * How the value is decoded: `store` memoises it and hands out a copy, `scan` (rows of a paged
     * scan, which must not flood the cache) does not memoise a miss, `take` hands the memoised
     * value itself over and drops it (DecodedValueCache.take).
     */
    private readonly mode: 'store' | 'scan' | 'take' = 'store',
  ) {}

  get key(): string {
    return this.row.key;
  }

  get revision(): bigint {
    return this.row.revision;
  }

  /** A paged row's value is decoded for it alone and never memoised (`decodeWithoutStoring`). */
  get ownValue(): boolean {
    return this.mode === 'scan';
  }

  get softDeleted(): boolean {
    return KINDS[this.kind].softDelete && Number(this.row.deleted) !== 0;
  }

  get value(): Record<string, unknown> {
    this.decoded ??=
      this.mode === 'store'
        ? this.cache.decode(this.kind, this.row.key, this.row.value)
        : this.mode === 'take'
          ? this.cache.take(this.kind, this.row.key, this.row.value)
          : this.cache.decodeWithoutStoring(this.kind, this.row.key, this.row.value);
    return this.decoded;
  }

  ordinals(): BlockOrdinals | undefined {
    return this.kind === 'block' ? freeBlockOrdinals(this.row.value, this.row.key) : undefined;
  }

  peek(): Readonly<Record<string, unknown>> {
    // Stored text is plain JSON (stringifyWireJson); only big integers need the lossless parser. A
    // block with no allocated ordinal is read without either (design/ipam-datastore.md, "Paged
    // reads of blocks with no allocation").
    const free = this.kind === 'block' ? decodeFreeBlockText(this.row.value, this.row.key) : undefined;
    return free ?? (JSON.parse(this.row.value) as Record<string, unknown>);
  }
}

interface StampRow {
  n: bigint;
  m: bigint | null;
}

interface ChangeRow {
  revision: bigint;
  kind: string;
  key: string;
  type: string;
  value: string;
  value_revision: bigint;
}

/** One kind's statements: by key, prepared on first use; by filter shape, prepared per shape. */
class KindStatements {
  readonly list = new Map<string, Database.Statement<unknown[], ObjectRow>>();
  readonly stamp = new Map<string, Database.Statement<unknown[], StampRow>>();
  private readonly getSql: string;
  private readonly putSql: string;
  private readonly removeSql: string;

  constructor(
    private readonly statements: PreparedStatements,
    table: string,
  ) {
    this.getSql = `SELECT key, revision, deleted, value FROM ${table} WHERE key = ?`;
    this.putSql = `INSERT OR REPLACE INTO ${table} (key, revision, deleted, host, type, ip_version, value) VALUES (?, ?, ?, ?, ?, ?, ?)`;
    this.removeSql = `DELETE FROM ${table} WHERE key = ?`;
  }

  get get(): Database.Statement<[string], ObjectRow> {
    return this.statements.get(this.getSql);
  }

  get put(): Database.Statement<[string, bigint, number, string | null, string | null, number | null, string]> {
    return this.statements.get(this.putSql);
  }

  get remove(): Database.Statement<[string]> {
    return this.statements.get(this.removeSql);
  }
}

/** Compaction runs every this many revisions, inside the write that crosses the boundary. */
const COMPACT_EVERY = 1024n;

/** Decoded values memoised per connection (see DecodedValueCache). */
const DECODE_CACHE_ROWS = 4096;

/**
 * Rows in SQLite (WAL). The connection runs with safe integers on, so revisions come back as
 * bigint. Writes are BEGIN IMMEDIATE: a deferred transaction that reads and then writes hits
 * SQLITE_BUSY_SNAPSHOT under WAL whenever another process committed in between (design/toolchain.md#sqlite).
 */
/** The `AND column = ?` tail and its parameters for the filter's set fields (one prepared statement per shape). */
function filterClause(filter: RowFilter): { shape: string; params: unknown[] } {
  const params: unknown[] = [];
  let shape = '';
  for (const [column, value] of [['host', filter.host], ['type', filter.type], ['ip_version', filter.ipVersion]] as const) {
    if (value === undefined) continue;
    shape += ` AND ${column} = ?`;
    params.push(value);
  }
  return { shape, params };
}

export class SqliteEngine implements RowEngine {
  private readonly sql: PreparedStatements;
  private readonly statements: Map<KindName, KindStatements>;
  private readonly decoded = new DecodedValueCache(DECODE_CACHE_ROWS);
  /** The value `putRow` just encoded, so that the change-log entry written next reuses the text. */
  private lastEncoded: { readonly value: Record<string, unknown>; readonly text: string } | undefined;
  /** Revisions taken from the counter by `reserveRevisions` and not handed out yet (this write only). */
  private reserved: { next: bigint; last: bigint } | undefined;
  /** Between `beginWrite` and its commit or rollback. */
  private writing = false;
  /** This write transaction's `PRAGMA data_version`, read on its first stamp. */
  private txDataVersion: bigint | undefined;
  private readonly stamps = new StampMemo();
  /** Copies made by `ownedCopy` that `decodedCopy` accepted: exact already, nobody else holds them. */
  private readonly exactCopies = new WeakSet<Record<string, unknown>>();
  /** The WAL size at which a commit truncates it (see `truncateLongWal`), read on the first check. */
  private walTruncateBytes: number | undefined;
  /** The dataVersion statement in pluck mode (its text is shared with nothing else). */
  private dataVersionStatement: Database.Statement<[], bigint> | undefined;
  /** Shared by every handle on this file in this process (see file-writer-mutex.ts). */
  readonly writerMutex: AsyncMutex | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly options: SqliteEngineOptions,
  ) {
    this.writerMutex = options.writer?.mutex;
    this.sql = new PreparedStatements(db);
    this.statements = new Map(KIND_NAMES.map((kind) => [kind, new KindStatements(this.sql, TABLES[kind])]));
  }

  // The engine's own statements, each prepared on first use (see PreparedStatements).
  private get begin(): Database.Statement {
    return this.sql.get('BEGIN');
  }

  private get beginImmediate(): Database.Statement {
    return this.sql.get('BEGIN IMMEDIATE');
  }

  private get commitStatement(): Database.Statement {
    return this.sql.get('COMMIT');
  }

  private get rollbackStatement(): Database.Statement {
    return this.sql.get('ROLLBACK');
  }

  private get bump(): Database.Statement<[], { value: bigint }> {
    return this.sql.get('UPDATE revision_counter SET value = value + 1 WHERE id = 0 RETURNING value');
  }

  private get current(): Database.Statement<[], { value: bigint }> {
    return this.sql.get('SELECT value FROM revision_counter WHERE id = 0');
  }

  private get reserve(): Database.Statement<[bigint], { value: bigint }> {
    return this.sql.get('UPDATE revision_counter SET value = value + ? WHERE id = 0 RETURNING value');
  }

  private get dataVersion(): Database.Statement<[], bigint> {
    return (this.dataVersionStatement ??= this.db.prepare<[], bigint>('PRAGMA data_version').pluck());
  }

  private get insertChange(): Database.Statement<[bigint, string, string, string, string, bigint]> {
    return this.sql.get('INSERT INTO changes (revision, kind, key, type, value, value_revision) VALUES (?, ?, ?, ?, ?, ?)');
  }

  private get selectChanges(): Database.Statement<[string, bigint, number], ChangeRow> {
    return this.sql.get('SELECT * FROM changes WHERE kind = ? AND revision > ? ORDER BY revision LIMIT ?');
  }

  private get compacted(): Database.Statement<[], { value: bigint }> {
    return this.sql.get("SELECT value FROM meta WHERE name = 'compacted_revision'");
  }

  private get pruneChanges(): Database.Statement<[bigint]> {
    return this.sql.get('DELETE FROM changes WHERE revision <= ?');
  }

  private get setCompacted(): Database.Statement<[bigint]> {
    return this.sql.get("UPDATE meta SET value = MAX(value, ?) WHERE name = 'compacted_revision'");
  }

  /**
   * A process that exits without closing leaves its WAL behind, and the next process to open the
   * file alone rebuilds the WAL index from every frame in it and, knowing nothing of earlier
   * checkpoints, copies them all again at its next checkpoint: the WAL of short-lived processes
   * only grows. So once it holds `walTruncatePages` pages, the commit checkpoints it and truncates
   * it to nothing (design/ipam-datastore.md, "Short-lived processes and the WAL"). Without waiting:
   * when another process reads, the checkpoint is left to a later commit.
   */
  private truncateLongWal(): void {
    const pages = this.options.walTruncatePages;
    if (pages === undefined) return;
    this.walTruncateBytes ??= WAL_HEADER_BYTES + pages * (Number(this.db.pragma('page_size', { simple: true })) + WAL_FRAME_HEADER_BYTES);
    const wal = statSync(`${this.options.path}-wal`, { throwIfNoEntry: false });
    if (wal === undefined || wal.size < this.walTruncateBytes) return;
    const busyTimeout = Number(this.db.pragma('busy_timeout', { simple: true }));
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The commit stands; a later one checkpoints.
    } finally {
      this.db.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  private kind(kind: KindName): KindStatements {
    const s = this.statements.get(kind);
    if (s === undefined) throw new Error(`unknown kind ${kind}`);
    return s;
  }

  // Transaction control runs through prepared statements: `exec` would parse the SQL every time.
  beginRead(): void {
    this.begin.run();
  }

  endRead(): void {
    if (this.db.inTransaction) this.commitStatement.run();
  }

  beginWrite(): void {
    if (this.options.writer === undefined) throw new DatastoreReadOnlyError(this.options.path);
    this.beginImmediate.run();
    this.writing = true;
  }

  commit(): void {
    this.endWrite();
    try {
      this.commitStatement.run();
    } catch (err) {
      // Whatever becomes of the open transaction, stamps read inside it may name undone writes.
      this.stamps.forget();
      throw err;
    }
    this.truncateLongWal();
  }

  rollback(): void {
    this.endWrite();
    this.stamps.forget();
    if (this.db.inTransaction) this.rollbackStatement.run();
  }

  /** What lives for one write transaction only. */
  private endWrite(): void {
    this.writing = false;
    this.lastEncoded = undefined;
    this.reserved = undefined;
    this.txDataVersion = undefined;
  }

  getRow(kind: KindName, key: string): StoredRow | undefined {
    const row = this.kind(kind).get.get(key);
    return row === undefined ? undefined : new SqliteRow(kind, row, this.decoded);
  }

  takeRow(kind: KindName, key: string): StoredRow | undefined {
    const row = this.kind(kind).get.get(key);
    return row === undefined ? undefined : new SqliteRow(kind, row, this.decoded, 'take');
  }

  listRows(kind: KindName, filter: RowFilter): StoredRow[] {
    const { shape, params } = filterClause(filter);
    return this.listStatement(kind, shape, `${shape} ORDER BY key`).all(...params).map((r) => new SqliteRow(kind, r, this.decoded));
  }

  stampRows(kind: KindName, filter: StampFilter): RowStamp {
    // Inside a write transaction (the transaction's stamps), a stamp read before is reused while
    // nothing can have moved it (StampMemo); elsewhere it is read.
    if (!this.writing) return this.readStamp(kind, filter);
    this.txDataVersion ??= this.dataVersion.get() ?? 0n;
    return this.stamps.stamp(kind, filter, this.txDataVersion, () => this.readStamp(kind, filter));
  }

  private readStamp(kind: KindName, filter: StampFilter): RowStamp {
    const params: unknown[] = [];
    let shape = '';
    for (const [column, value] of [['key', filter.key], ['host', filter.host], ['type', filter.type], ['ip_version', filter.ipVersion]] as const) {
      if (value === undefined) continue;
      shape += ` AND ${column} = ?`;
      params.push(value);
    }
    const cache = this.kind(kind).stamp;
    let stmt = cache.get(shape);
    if (stmt === undefined) {
      // Soft-deleted rows count too: the stamp names the table's state, not what readers see of it.
      stmt = this.db.prepare<unknown[], StampRow>(`SELECT count(*) AS n, max(revision) AS m FROM ${TABLES[kind]} WHERE 1 = 1${shape}`);
      cache.set(shape, stmt);
    }
    const row = stmt.get(...params);
    return { count: Number(row?.n ?? 0n), maxRevision: row?.m ?? 0n };
  }

  listRowsPage(kind: KindName, filter: RowFilter, after: string | undefined, limit: number): StoredRow[] {
    const { shape: filterShape, params } = filterClause(filter);
    const shape = after === undefined ? filterShape : `${filterShape} AND key > ?`;
    if (after !== undefined) params.push(after);
    params.push(limit);
    // The primary key's index serves `key > ? ORDER BY key LIMIT ?`: each page is a range scan.
    return this.listStatement(kind, `page:${shape}`, `${shape} ORDER BY key LIMIT ?`).all(...params).map((r) => new SqliteRow(kind, r, this.decoded, 'scan'));
  }

  /** The prepared `SELECT` of live rows of `kind` with `tail` after the soft-delete filter, cached under `id`. */
  private listStatement(kind: KindName, id: string, tail: string): Database.Statement<unknown[], ObjectRow> {
    const cache = this.kind(kind).list;
    let stmt = cache.get(id);
    if (stmt === undefined) {
      stmt = this.db.prepare<unknown[], ObjectRow>(`SELECT key, revision, deleted, value FROM ${TABLES[kind]} WHERE deleted = 0${tail}`);
      cache.set(id, stmt);
    }
    return stmt;
  }

  putRow(kind: KindName, row: StoredRow, owned = false): void {
    const index = KINDS[kind].indexOf(row.value);
    // One walk per write: the walk that accepts the value for the decode cache also proves the
    // native writer renders it exactly (design/ipam-datastore.md, "Allocation cost").
    const decoded = owned ? (this.exactCopies.has(row.value) ? row.value : decodedAsIs(kind, row.value)) : decodedCopy(kind, row.value);
    const text = (decoded === undefined ? undefined : encodeExact(kind, row.value)) ?? encodeValue(row.value);
    this.lastEncoded = { value: row.value, text };
    this.kind(kind).put.run(
      row.key,
      row.revision,
      isSoftDeleted(kind, row.value) ? 1 : 0,
      index.host ?? null,
      index.type ?? null,
      index.ipVersion ?? null,
      text,
    );
    // The next read of this row (the CAS check of the next write, a block re-read) copies instead of
    // parsing. Safe even if this transaction rolls back: the entry is keyed by its exact text. A
    // value the engine owns is memoised as it is (design/ipam-datastore.md, "Allocation cost").
    if (decoded !== undefined) this.decoded.seed(kind, row.key, text, decoded);
    this.stamps.wrote(kind);
  }

  ownedCopy(kind: KindName, value: Record<string, unknown>): Record<string, unknown> {
    const copy = decodedCopy(kind, value);
    if (copy === undefined) return copyValue(value);
    this.exactCopies.add(copy);
    return copy;
  }

  removeRow(kind: KindName, key: string): void {
    this.kind(kind).remove.run(key);
    this.stamps.wrote(kind);
  }

  bumpRevision(): bigint {
    const range = this.reserved;
    if (range !== undefined && range.next <= range.last) return range.next++;
    const row = this.bump.get();
    if (row === undefined) throw new Error('revision counter row is missing');
    return row.value;
  }

  /**
   * Takes the next `count` revisions from the counter with one statement; the following
   * `bumpRevision` calls of this write hand them out in order. Unused ones are skipped (revisions
   * only have to grow).
   */
  reserveRevisions(count: number): void {
    if (count < 2) return;
    const row = this.reserve.get(BigInt(count));
    if (row === undefined) throw new Error('revision counter row is missing');
    this.reserved = { next: row.value - BigInt(count) + 1n, last: row.value };
  }

  currentRevision(): bigint {
    return this.current.get()?.value ?? 0n;
  }

  appendChange(c: ChangeRecord): void {
    const text = this.lastEncoded?.value === c.value ? this.lastEncoded.text : encodeValue(c.value);
    this.lastEncoded = undefined;
    this.insertChange.run(c.revision, c.kind, c.key, c.type, text, c.valueRevision);
    const retention = BigInt(this.options.changeLogRetention);
    if (c.revision % COMPACT_EVERY === 0n && c.revision > retention) {
      this.pruneChanges.run(c.revision - retention);
      this.setCompacted.run(c.revision - retention);
    }
  }

  changesSince(kind: KindName, after: bigint, limit: number): ChangeRecord[] {
    return this.selectChanges.all(kind, after, limit).map((r) => ({
      revision: r.revision,
      kind,
      key: r.key,
      type: r.type as ChangeRecord['type'],
      value: decodeValue(kind, r.value),
      valueRevision: r.value_revision,
    }));
  }

  compactedRevision(): bigint {
    return this.compacted.get()?.value ?? 0n;
  }

  translateError(err: unknown): unknown {
    return translateSqliteError(err);
  }

  close(): void {
    this.db.close();
    this.options.writer?.release();
  }
}
