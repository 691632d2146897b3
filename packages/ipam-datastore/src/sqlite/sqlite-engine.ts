import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { BlockOrdinals } from '@ipamkit/models';
import { copyValue } from '../engine/copy-value.js';
import { KIND_NAMES, KINDS, isSoftDeleted, type KindName, type RowFilter } from '../engine/kinds.js';
import type { ChangedRow, ChangeRecord, OptimisticEngine, RowEngine, RowStamp, StampFilter, StoredRow } from '../engine/row-engine.js';
import { decodedAsIs, decodedCopy } from './decoded-copy.js';
import { DecodedValueCache, type DecodedEntry } from './decoded-value-cache.js';
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
  /** See `SqliteDatastoreOptions.optimisticTransactions`. */
  readonly optimisticTransactions?: boolean;
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
 * A row read by key: `value` is null when the row's revision was the decode cache's entry's, which
 * then stands for the text (design/ipam-datastore.md, "Values read only on a miss").
 */
interface KeyedRow {
  key: string;
  revision: bigint;
  deleted: bigint;
  value: string | null;
}

/** Reads a row's text at its revision, for a row whose text its first read skipped. */
type TextReader = (kind: KindName, key: string, revision: bigint) => string;

/**
 * A row as read: the value is decoded on first use, so a CAS check that only compares the revision
 * (and the soft-delete column) never parses the JSON.
 */
class SqliteRow implements StoredRow {
  private decoded: Record<string, unknown> | undefined;

  constructor(
    private readonly kind: KindName,
    private readonly row: ObjectRow | KeyedRow,
    private readonly cache: DecodedValueCache,
    /**
     * How the value is decoded: `store` memoises it and hands out a copy, `scan` (rows of a paged
     * scan, which must not flood the cache) does not memoise a miss, `take` hands the memoised
     * value itself over and drops it (DecodedValueCache.take).
     */
    private readonly mode: 'store' | 'scan' | 'take' = 'store',
    /** For a row read without its text: the cache entry of its revision, and how to read the text after all. */
    private readonly skipped?: { readonly entry: DecodedEntry; readonly readText: TextReader },
  ) {}

  /**
   * The stored text: as read, or, for a row read without it, read now at the row's revision (only
   * when the entry that stood for it was handed over meanwhile, or a caller asks for the text).
   */
  private get text(): string {
    if (this.row.value !== null) return this.row.value;
    if (this.skipped === undefined) throw new Error(`${this.kind} ${this.row.key} was read without its value`);
    const text = this.skipped.readText(this.kind, this.row.key, this.row.revision);
    this.row.value = text;
    return text;
  }

  get key(): string {
    return this.row.key;
  }

  get revision(): bigint {
    return this.row.revision;
  }

  /**
   * Every mode hands this row a value of its own: a paged row's is decoded for it alone and never
   * memoised (`decodeWithoutStoring`), a read by key or a list gets a fresh decode (the cache keeps
   * a copy), a copy of a cache entry or an entry handed over (`take`, `fromEntry`). So a reader may
   * add the revision to it instead of copying it again (design/ipam-core.md, "Allocation cost: the
   * ninth round (2026-12-02)"). Each read makes a new SqliteRow: nobody else holds its value.
   */
  get ownValue(): boolean {
    return true;
  }

  get softDeleted(): boolean {
    return KINDS[this.kind].softDelete && Number(this.row.deleted) !== 0;
  }

  get value(): Record<string, unknown> {
    if (this.decoded !== undefined) return this.decoded;
    const fromEntry = this.row.value === null && this.skipped !== undefined ? this.cache.fromEntry(this.kind, this.row.key, this.skipped.entry, this.mode === 'take') : undefined;
    this.decoded =
      fromEntry ??
      (this.mode === 'store'
        ? this.cache.decode(this.kind, this.row.key, this.text, this.row.revision)
        : this.mode === 'take'
          ? this.cache.take(this.kind, this.row.key, this.text, this.row.revision)
          : this.cache.decodeWithoutStoring(this.kind, this.row.key, this.text));
    return this.decoded;
  }

  ordinals(): BlockOrdinals | undefined {
    return this.kind === 'block' ? freeBlockOrdinals(this.text, this.row.key) : undefined;
  }

  peek(): Readonly<Record<string, unknown>> {
    // Stored text is plain JSON (stringifyWireJson); only big integers need the lossless parser. A
    // block with no allocated ordinal is read without either (design/ipam-datastore.md, "Paged
    // reads of blocks with no allocation").
    const free = this.kind === 'block' ? decodeFreeBlockText(this.text, this.row.key) : undefined;
    return free ?? (JSON.parse(this.text) as Record<string, unknown>);
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

/**
 * The columns a row is read with. A row whose `value` is '' (never a stored value: every value is a
 * JSON object) keeps it in the change-log entry of its own revision, the write's `added` or
 * `modified` entry (design/ipam-datastore.md, "Values stored once").
 */
const ROW_VALUE = "CASE t.value WHEN '' THEN (SELECT c.value FROM changes c WHERE c.revision = t.revision) ELSE t.value END";
const ROW_COLUMNS = `key, revision, deleted, ${ROW_VALUE} AS value`;

/** One kind's statements: by key, prepared on first use; by filter shape, prepared per shape. */
class KindStatements {
  readonly list = new Map<string, Database.Statement<unknown[], ObjectRow>>();
  readonly stamp = new Map<string, Database.Statement<unknown[], StampRow>>();
  private readonly getSql: string;
  private readonly textSql: string;
  private readonly putSql: string;
  private readonly removeSql: string;
  private readonly inlineSql: string;
  private readonly storedSql: string;

  constructor(
    private readonly statements: PreparedStatements,
    table: string,
    kind: KindName,
  ) {
    // A read by key names the revision the decode cache holds for the key: a row still at that
    // revision whose value is in its log entry ('' in the row: a write of ours logged it, and
    // nothing rewrote the row since without a new revision) is read without its value (no log
    // entry looked up, no overflow page, no text to compare), and the cache's entry stands for it
    // (design/ipam-datastore.md, "Values read only on a miss"). A row holding its value inline is
    // read with it, as before, and hits only by its exact text.
    this.getSql = `SELECT key, revision, deleted, CASE WHEN t.revision = ? AND t.value = '' THEN NULL ELSE ${ROW_VALUE} END AS value FROM ${table} t WHERE key = ?`;
    this.textSql = `SELECT ${ROW_VALUE} AS value FROM ${table} t WHERE key = ? AND revision = ?`;
    // An upsert leaves `host`, `type` and `ip_version` (functions of the key) and so the kind's
    // index untouched when the row exists; a replace deleted and re-inserted its index entry.
    this.putSql = `INSERT INTO ${table} (key, revision, deleted, host, type, ip_version, value) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET revision = excluded.revision, deleted = excluded.deleted, value = excluded.value`;
    this.removeSql = `DELETE FROM ${table} WHERE key = ?`;
    // A delete's entry copies the row's last value as stored, without decoding it: read here, then
    // inserted by value. Not one `INSERT INTO changes … SELECT` that reads `changes`: SQLite fills
    // a temporary table with the selected row before inserting into the table it reads
    // (design/ipam-datastore.md, "Deletes logged without a temporary table").
    this.storedSql = `SELECT ${ROW_VALUE} AS value, revision FROM ${table} t WHERE key = ?`;
    // Before the log entries up to a revision are pruned, the rows that still keep their value in
    // one of them take it back.
    this.inlineSql = `UPDATE ${table} SET value = c.value FROM changes c WHERE c.kind = '${kind}' AND c.revision <= ? AND ${table}.key = c.key AND ${table}.revision = c.revision AND ${table}.value = ''`;
  }

  get inline(): Database.Statement<[bigint]> {
    return this.statements.get(this.inlineSql);
  }

  get stored(): Database.Statement<[string], { value: string | null; revision: bigint }> {
    return this.statements.get(this.storedSql);
  }

  get get(): Database.Statement<[bigint, string], KeyedRow> {
    return this.statements.get(this.getSql);
  }

  get text(): Database.Statement<[string, bigint], { value: string }> {
    return this.statements.get(this.textSql);
  }

  get put(): Database.Statement<[string, bigint, number, string | null, string | null, number | null, string]> {
    return this.statements.get(this.putSql);
  }

  get remove(): Database.Statement<[string]> {
    return this.statements.get(this.removeSql);
  }
}

/**
 * A transaction validates at most this many writes of others made since its reads began; past that it
 * is judged stale without reading them, and runs again holding the write lock.
 */
const MAX_VALIDATED_CHANGES = 1024n;

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

export class SqliteEngine implements RowEngine, OptimisticEngine {
  private readonly sql: PreparedStatements;
  private readonly statements: Map<KindName, KindStatements>;
  private readonly decoded = new DecodedValueCache(DECODE_CACHE_ROWS);
  /**
   * This write's revisions: the next to hand out (read on the first `bumpRevision`), the last
   * handed out and the last logged (see `bumpRevision`).
   */
  private revisions: { next: bigint; taken: bigint; logged: bigint } | undefined;
  /** Between `beginWrite` and its commit or rollback. */
  private writing = false;
  /** Between `beginOptimisticReads` and `endOptimisticReads`: a transaction body's reads. */
  private optimisticReads = false;
  /** With `optimisticTransactions`: transaction bodies read outside the write lock (design/ipam-datastore.md, "Optimistic transactions"). */
  readonly optimistic: OptimisticEngine | undefined;
  /** This write transaction's `PRAGMA data_version`, read on its first stamp. */
  private txDataVersion: bigint | undefined;
  private readonly stamps = new StampMemo();
  /** Copies made by `ownedCopy` that `decodedCopy` accepted: exact already, nobody else holds them. */
  private readonly exactCopies = new WeakSet<Record<string, unknown>>();
  /** The WAL size at which a commit truncates it (see `truncateLongWal`), read on the first check. */
  private walTruncateBytes: number | undefined;
  /** The changedRows statement in raw mode. */
  private changedRowsStatement: Database.Statement<[bigint, bigint], [string, string]> | undefined;
  /** The dataVersion statement in pluck mode (its text is shared with nothing else). */
  private dataVersionStatement: Database.Statement<[], bigint> | undefined;
  /** Shared by every handle on this file in this process (see file-writer-mutex.ts). */
  readonly writerMutex: AsyncMutex | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly options: SqliteEngineOptions,
  ) {
    this.writerMutex = options.writer?.mutex;
    this.optimistic = options.optimisticTransactions === true ? this : undefined;
    this.sql = new PreparedStatements(db);
    this.statements = new Map(KIND_NAMES.map((kind) => [kind, new KindStatements(this.sql, TABLES[kind], kind)]));
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

  private get current(): Database.Statement<[], { value: bigint | null }> {
    return this.sql.get('SELECT max(revision) AS value FROM changes');
  }

  private get insertHidden(): Database.Statement<[bigint]> {
    return this.sql.get("INSERT INTO changes (revision, kind, key, type, value, value_revision) VALUES (?, '', '', 'hidden', '', 0)");
  }

  private get dataVersion(): Database.Statement<[], bigint> {
    return (this.dataVersionStatement ??= this.db.prepare<[], bigint>('PRAGMA data_version').pluck());
  }

  private get insertChange(): Database.Statement<[bigint, string, string, string, string | null, bigint]> {
    return this.sql.get('INSERT INTO changes (revision, kind, key, type, value, value_revision) VALUES (?, ?, ?, ?, ?, ?)');
  }

  /** In raw mode (arrays, not objects: a validation may read a thousand), its text shared with nothing else. */
  private get changedRows(): Database.Statement<[bigint, bigint], [string, string]> {
    return (this.changedRowsStatement ??= this.db.prepare<[bigint, bigint], [string, string]>('SELECT kind, key FROM changes WHERE revision > ? AND revision <= ?').raw());
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

  /**
   * A transaction body's reads run outside any transaction, each statement in its own read
   * snapshot, none older than the revision returned (read first). Refused on a read-only handle,
   * as `beginWrite` is, so the body never runs there. No read transaction stays open across the
   * body: sixteen processes each holding one through their bodies kept SQLite from ever
   * restarting the WAL, which grew to 40 MB and made every commit's checkpoint dearer
   * (design/ipam-datastore.md, "Optimistic transactions").
   */
  beginOptimisticReads(): bigint {
    if (this.options.writer === undefined) throw new DatastoreReadOnlyError(this.options.path);
    this.optimisticReads = true;
    return this.currentRevision();
  }

  endOptimisticReads(): void {
    this.optimisticReads = false;
    this.txDataVersion = undefined;
  }

  /**
   * Every row written after `revision` up to the log's newest revision, read from the change log,
   * which logs every write at its own revision (design/ipam-datastore.md, "Values stored once").
   * `undefined` when the log cannot name them all: fewer entries than revisions (compaction pruned
   * some, or a soft-deleted create took a revision no entry names), a hidden entry (the same), or
   * more than MAX_VALIDATED_CHANGES. Inside a write it also fixes the write's first revision,
   * which `bumpRevision` would read.
   */
  changedSince(revision: bigint): readonly ChangedRow[] | undefined {
    const current = this.currentRevision();
    if (this.writing) this.revisions = { next: current + 1n, taken: 0n, logged: 0n };
    if (current === revision) return [];
    if (current < revision || current - revision > MAX_VALIDATED_CHANGES) return undefined;
    const rows = this.changedRows.all(revision, current);
    if (BigInt(rows.length) !== current - revision) return undefined;
    const changed: ChangedRow[] = [];
    for (const [name, key] of rows) {
      const kind = KIND_NAMES.find((k) => k === name);
      if (kind === undefined) return undefined;
      changed.push({ kind, key });
    }
    return changed;
  }

  beginWrite(): void {
    if (this.options.writer === undefined) throw new DatastoreReadOnlyError(this.options.path);
    this.beginImmediate.run();
    this.writing = true;
    // Entries memoised from now on may name revisions that never commit (DecodedValueCache.track).
    this.decoded.track();
  }

  commit(): void {
    const r = this.revisions;
    // A revision no entry logged (a soft-deleted create) is kept by an entry no watch reads (kind '').
    if (r !== undefined && r.taken > r.logged) this.insertHidden.run(r.taken);
    this.endWrite();
    try {
      this.commitStatement.run();
    } catch (err) {
      // Whatever becomes of the open transaction, stamps and values read inside it may name undone writes.
      this.stamps.forget();
      this.decoded.settle(false);
      throw err;
    }
    this.decoded.settle(true);
    this.truncateLongWal();
  }

  rollback(): void {
    this.endWrite();
    this.stamps.forget();
    this.decoded.settle(false);
    if (this.db.inTransaction) this.rollbackStatement.run();
  }

  /** What lives for one write transaction only. */
  private endWrite(): void {
    this.writing = false;
    this.revisions = undefined;
    this.txDataVersion = undefined;
  }

  getRow(kind: KindName, key: string): StoredRow | undefined {
    return this.readByKey(kind, key, 'store');
  }

  takeRow(kind: KindName, key: string): StoredRow | undefined {
    return this.readByKey(kind, key, 'take');
  }

  /** A row by key, read without its text when the decode cache holds its revision (design/ipam-datastore.md, "Values read only on a miss"). */
  private readByKey(kind: KindName, key: string, mode: 'store' | 'take'): StoredRow | undefined {
    const entry = this.decoded.byRevision(kind, key);
    const row = this.kind(kind).get.get(entry?.revision ?? -1n, key);
    if (row === undefined) return undefined;
    return new SqliteRow(kind, row, this.decoded, mode, row.value === null && entry !== undefined ? { entry, readText: this.readText } : undefined);
  }

  /** The text of a row at `revision`, for a row whose first read skipped it. */
  private readonly readText: TextReader = (kind, key, revision) => {
    const row = this.kind(kind).text.get(key, revision);
    if (row === undefined) throw new Error(`${kind} ${key} changed while it was being read`);
    return row.value;
  };

  listRows(kind: KindName, filter: RowFilter): StoredRow[] {
    const { shape, params } = filterClause(filter);
    return this.listStatement(kind, shape, `${shape} ORDER BY key`).all(...params).map((r) => new SqliteRow(kind, r, this.decoded));
  }

  stampRows(kind: KindName, filter: StampFilter): RowStamp {
    // Inside a transaction (its body's reads or its write), a stamp read before is reused while
    // nothing can have moved it (StampMemo); elsewhere it is read. A body's reads outside the lock
    // read `data_version` once, after the revision they start from: a stamp reused under it names
    // the state at that moment, no older than that revision, which is what validation needs
    // (design/ipam-datastore.md, "Optimistic transactions").
    if (!this.writing && !this.optimisticReads) return this.readStamp(kind, filter);
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
      stmt = this.db.prepare<unknown[], ObjectRow>(`SELECT ${ROW_COLUMNS} FROM ${TABLES[kind]} t WHERE deleted = 0${tail}`);
      cache.set(id, stmt);
    }
    return stmt;
  }

  putRow(kind: KindName, row: StoredRow, owned = false, log?: ChangeRecord['type']): void {
    const logAs = log === 'added' || log === 'modified' ? log : undefined;
    if (log === 'deleted') this.logRemoval(kind, row.key, row.revision);
    const index = KINDS[kind].indexOf(row.value);
    // One walk per write: the walk that accepts the value for the decode cache also proves the
    // native writer renders it exactly (design/ipam-datastore.md, "Allocation cost").
    const decoded = owned ? (this.exactCopies.has(row.value) ? row.value : decodedAsIs(kind, row.value)) : decodedCopy(kind, row.value);
    const text = (decoded === undefined ? undefined : encodeExact(kind, row.value)) ?? encodeValue(row.value);
    // A logged write keeps its value once, in its change-log entry (design/ipam-datastore.md, "Values stored once").
    this.kind(kind).put.run(
      row.key,
      row.revision,
      isSoftDeleted(kind, row.value) ? 1 : 0,
      index.host ?? null,
      index.type ?? null,
      index.ipVersion ?? null,
      logAs === undefined ? text : '',
    );
    if (logAs !== undefined) this.logChange(row.revision, kind, row.key, logAs, text);
    // The next read of this row (the CAS check of the next write, a block re-read) copies instead of
    // parsing. Safe even if this transaction rolls back: the entry is keyed by its exact text. A
    // value the engine owns is memoised as it is (design/ipam-datastore.md, "Allocation cost").
    if (decoded !== undefined) this.decoded.seed(kind, row.key, text, decoded, row.revision);
    this.stamps.wrote(kind);
  }

  ownedCopy(kind: KindName, value: Record<string, unknown>): Record<string, unknown> {
    const copy = decodedCopy(kind, value);
    if (copy === undefined) return copyValue(value);
    this.exactCopies.add(copy);
    return copy;
  }

  removeRow(kind: KindName, key: string, revision: bigint): void {
    this.logRemoval(kind, key, revision);
    this.kind(kind).remove.run(key);
    this.stamps.wrote(kind);
  }

  /**
   * The global revision is the change log's highest: every revision taken is logged before its
   * write commits (a soft-deleted create by a hidden entry, see `commit`), and compaction never
   * prunes the highest entry, so the next revision is one above it, read once per write under the
   * write lock (design/ipam-datastore.md, "Values stored once"). No counter row to write.
   */
  bumpRevision(): bigint {
    this.revisions ??= { next: this.currentRevision() + 1n, taken: 0n, logged: 0n };
    this.revisions.taken = this.revisions.next++;
    return this.revisions.taken;
  }

  currentRevision(): bigint {
    return this.current.get()?.value ?? 0n;
  }

  /**
   * Logs a `deleted` entry at `revision` carrying the row's current value (a delete, a soft delete).
   * Without a row nothing is logged, and `commit` keeps the revision by a hidden entry.
   */
  private logRemoval(kind: KindName, key: string, revision: bigint): void {
    const row = this.kind(kind).stored.get(key);
    if (row === undefined) return;
    // A value the log no longer holds fails the insert (the column is NOT NULL), as it always did.
    this.insertChange.run(revision, kind, key, 'deleted', row.value, row.revision);
    this.logged(revision);
  }

  /** Logs the entry of a write whose value is `text`, at its own revision. */
  private logChange(revision: bigint, kind: KindName, key: string, type: ChangeRecord['type'], text: string): void {
    this.insertChange.run(revision, kind, key, type, text, revision);
    this.logged(revision);
  }

  /** Records an entry logged at `revision`, and compacts when it crosses a boundary. */
  private logged(revision: bigint): void {
    if (this.revisions !== undefined && revision > this.revisions.logged) this.revisions.logged = revision;
    // At least the entry just written stays: it holds the global revision.
    const retention = BigInt(Math.max(1, this.options.changeLogRetention));
    if (revision % COMPACT_EVERY === 0n && revision > retention) {
      const upTo = revision - retention;
      // A row not written since `upTo` takes its value back from the entry about to go.
      for (const k of KIND_NAMES) this.kind(k).inline.run(upTo);
      this.pruneChanges.run(upTo);
      this.setCompacted.run(upTo);
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
