import type Database from 'better-sqlite3';
import { KIND_NAMES, KINDS, isSoftDeleted, type KindName, type RowFilter } from '../engine/kinds.js';
import type { ChangeRecord, RowEngine, StoredRow } from '../engine/row-engine.js';
import { decodeValue, encodeValue } from './row-codec.js';
import { TABLES } from './schema.js';
import { translateSqliteError } from './translate-sqlite-error.js';

export interface SqliteEngineOptions {
  /** Change-log entries kept for watches; older revisions expire. */
  readonly changeLogRetention: number;
}

interface ObjectRow {
  key: string;
  revision: bigint;
  value: string;
}

interface ChangeRow {
  revision: bigint;
  kind: string;
  key: string;
  type: string;
  value: string;
  value_revision: bigint;
}

interface KindStatements {
  readonly get: Database.Statement<[string], ObjectRow>;
  readonly put: Database.Statement<[string, bigint, number, string | null, string | null, number | null, string]>;
  readonly remove: Database.Statement<[string]>;
}

/** Compaction runs every this many revisions, inside the write that crosses the boundary. */
const COMPACT_EVERY = 1024n;

/**
 * Rows in SQLite (WAL). The connection runs with safe integers on, so revisions come back as
 * bigint. Writes are BEGIN IMMEDIATE: a deferred transaction that reads and then writes hits
 * SQLITE_BUSY_SNAPSHOT under WAL whenever another process committed in between (toolchain.md §3b).
 */
export class SqliteEngine implements RowEngine {
  private readonly statements: Map<KindName, KindStatements>;
  private readonly listCache = new Map<string, Database.Statement<unknown[], ObjectRow>>();
  private readonly bump: Database.Statement<[], { value: bigint }>;
  private readonly current: Database.Statement<[], { value: bigint }>;
  private readonly insertChange: Database.Statement<[bigint, string, string, string, string, bigint]>;
  private readonly selectChanges: Database.Statement<[string, bigint, number], ChangeRow>;
  private readonly compacted: Database.Statement<[], { value: bigint }>;
  private readonly pruneChanges: Database.Statement<[bigint]>;
  private readonly setCompacted: Database.Statement<[bigint]>;

  constructor(
    private readonly db: Database.Database,
    private readonly options: SqliteEngineOptions,
  ) {
    this.statements = new Map(
      KIND_NAMES.map((kind) => {
        const t = TABLES[kind];
        return [
          kind,
          {
            get: db.prepare(`SELECT key, revision, value FROM ${t} WHERE key = ?`),
            put: db.prepare(
              `INSERT OR REPLACE INTO ${t} (key, revision, deleted, host, type, ip_version, value) VALUES (?, ?, ?, ?, ?, ?, ?)`,
            ),
            remove: db.prepare(`DELETE FROM ${t} WHERE key = ?`),
          },
        ];
      }),
    );
    this.bump = db.prepare('UPDATE revision_counter SET value = value + 1 WHERE id = 0 RETURNING value');
    this.current = db.prepare('SELECT value FROM revision_counter WHERE id = 0');
    this.insertChange = db.prepare('INSERT INTO changes (revision, kind, key, type, value, value_revision) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectChanges = db.prepare('SELECT * FROM changes WHERE kind = ? AND revision > ? ORDER BY revision LIMIT ?');
    this.compacted = db.prepare("SELECT value FROM meta WHERE name = 'compacted_revision'");
    this.pruneChanges = db.prepare('DELETE FROM changes WHERE revision <= ?');
    this.setCompacted = db.prepare("UPDATE meta SET value = MAX(value, ?) WHERE name = 'compacted_revision'");
  }

  private kind(kind: KindName): KindStatements {
    const s = this.statements.get(kind);
    if (s === undefined) throw new Error(`unknown kind ${kind}`);
    return s;
  }

  beginRead(): void {
    this.db.exec('BEGIN');
  }

  endRead(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  beginWrite(): void {
    this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void {
    this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  getRow(kind: KindName, key: string): StoredRow | undefined {
    const row = this.kind(kind).get.get(key);
    return row === undefined ? undefined : { key: row.key, revision: row.revision, value: decodeValue(kind, row.value) };
  }

  listRows(kind: KindName, filter: RowFilter): StoredRow[] {
    const where = ['deleted = 0'];
    const params: unknown[] = [];
    for (const [column, value] of [['host', filter.host], ['type', filter.type], ['ip_version', filter.ipVersion]] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    const sql = `SELECT key, revision, value FROM ${TABLES[kind]} WHERE ${where.join(' AND ')} ORDER BY key`;
    let stmt = this.listCache.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare<unknown[], ObjectRow>(sql);
      this.listCache.set(sql, stmt);
    }
    return stmt.all(...params).map((r) => ({ key: r.key, revision: r.revision, value: decodeValue(kind, r.value) }));
  }

  putRow(kind: KindName, row: StoredRow): void {
    const index = KINDS[kind].indexOf(row.value);
    this.kind(kind).put.run(
      row.key,
      row.revision,
      isSoftDeleted(kind, row.value) ? 1 : 0,
      index.host ?? null,
      index.type ?? null,
      index.ipVersion ?? null,
      encodeValue(row.value),
    );
  }

  removeRow(kind: KindName, key: string): void {
    this.kind(kind).remove.run(key);
  }

  bumpRevision(): bigint {
    const row = this.bump.get();
    if (row === undefined) throw new Error('revision counter row is missing');
    return row.value;
  }

  currentRevision(): bigint {
    return this.current.get()?.value ?? 0n;
  }

  appendChange(c: ChangeRecord): void {
    this.insertChange.run(c.revision, c.kind, c.key, c.type, encodeValue(c.value), c.valueRevision);
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
  }
}
