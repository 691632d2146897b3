import { isoUtc } from '@ipamkit/models';
import type Database from 'better-sqlite3';
import type { KindName } from '../engine/kinds.js';
import { DatastoreConfigError, SchemaVersionError } from '../errors.js';

/** One table per kind; every table has the same columns so one set of statements serves all. */
export const TABLES: Readonly<Record<KindName, string>> = {
  ipPool: 'ip_pools',
  ipReservation: 'ip_reservations',
  node: 'nodes',
  namespace: 'namespaces',
  block: 'blocks',
  affinity: 'affinities',
  handle: 'handles',
  ipamConfig: 'ipam_config',
};

const objectTable = (table: string): string => `
  CREATE TABLE ${table} (
    key        TEXT PRIMARY KEY,
    revision   INTEGER NOT NULL,
    deleted    INTEGER NOT NULL DEFAULT 0,
    host       TEXT,
    type       TEXT,
    ip_version INTEGER,
    value      TEXT NOT NULL
  ) WITHOUT ROWID;`;

interface Migration {
  readonly version: number;
  readonly sql: string;
}

/**
 * Forward-only migrations; a file is always at the highest version it has seen. Never edit a
 * released step: add the next one.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      ${Object.values(TABLES).map(objectTable).join('\n')}
      CREATE TABLE revision_counter (id INTEGER PRIMARY KEY CHECK (id = 0), value INTEGER NOT NULL);
      INSERT INTO revision_counter (id, value) VALUES (0, 0);
      CREATE TABLE changes (
        revision       INTEGER PRIMARY KEY,
        kind           TEXT NOT NULL,
        key            TEXT NOT NULL,
        type           TEXT NOT NULL,
        value          TEXT NOT NULL,
        value_revision INTEGER NOT NULL
      );
      CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO meta (name, value) VALUES ('compacted_revision', 0);`,
  },
  {
    // Host-scoped affinity listing (the core's hottest list) and per-family block listing by index;
    // watches scan the change log per kind.
    version: 2,
    sql: `
      CREATE INDEX affinities_by_host ON affinities (host, type, ip_version);
      CREATE INDEX blocks_by_ip_version ON blocks (ip_version);
      CREATE INDEX changes_by_kind ON changes (kind, revision);`,
  },
  {
    // From this version a row's `value` may be '', meaning "in the change-log entry of my
    // revision", and the global revision is the change log's highest (design/ipam-datastore.md,
    // "Values stored once"): the counter's value is kept by a hidden entry (kind '') when no entry
    // holds it. Watches read the log by revision (its primary key) without the index by kind, which
    // every write had to update. The version stops older builds, which would read '' as a value, with
    // SchemaVersionError.
    version: 3,
    sql: `
      INSERT INTO changes (revision, kind, key, type, value, value_revision)
        SELECT value, '', '', 'hidden', '', 0 FROM revision_counter WHERE value > (SELECT coalesce(max(revision), 0) FROM changes);
      DROP TABLE revision_counter;
      DROP INDEX changes_by_kind;`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** The versions applied to `db`, oldest first (empty for a new file). */
export function appliedVersions(db: Database.Database): number[] {
  const rows = db.prepare('SELECT version FROM schema_version ORDER BY version').all() as { version: number | bigint }[];
  return rows.map((r) => Number(r.version));
}

/**
 * The highest schema version recorded in `db` (0 for a file without ipamkit's schema), read with
 * plain SELECTs: no write lock, no DDL, so it answers while another process holds a write
 * transaction (WAL).
 */
export function readSchemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as { version: number | bigint | null };
  return row.version === null ? 0 : Number(row.version);
}

/**
 * The open protocol (design/ipam-datastore.md, "Opening a file"): read the version; a current file
 * is used as it is (the common case: every CNI call), a newer one is refused, and only a missing or
 * old schema takes the write lock to migrate (`migrate` checks again under the lock). A read-only
 * open never migrates: it refuses a file that is not current.
 */
export function ensureSchema(db: Database.Database, options: { readonly path: string; readonly readonly: boolean }): void {
  const found = readSchemaVersion(db);
  if (found > SCHEMA_VERSION) throw new SchemaVersionError(found, SCHEMA_VERSION);
  if (found === SCHEMA_VERSION) return;
  if (options.readonly) {
    throw new DatastoreConfigError(
      found === 0
        ? `${options.path} is not an ipamkit database (no schema): a read-only open cannot create it`
        : `the ipamkit database at ${options.path} has schema version ${found}, older than this build's ${SCHEMA_VERSION}: open it read-write once to migrate it`,
    );
  }
  migrate(db);
}

/**
 * Brings `db` up to `target` inside one BEGIN IMMEDIATE, so that processes opening the same new
 * file at once apply each step exactly once (the version is read again under the lock).
 */
export function migrate(db: Database.Database, target: number = SCHEMA_VERSION): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const current = Math.max(0, ...appliedVersions(db));
    if (current > SCHEMA_VERSION) throw new SchemaVersionError(current, SCHEMA_VERSION);
    const record = db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)');
    for (const m of MIGRATIONS) {
      if (m.version <= current || m.version > target) continue;
      db.exec(m.sql);
      record.run(m.version, isoUtc(new Date()));
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
