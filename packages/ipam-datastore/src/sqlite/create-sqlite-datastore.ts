import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Datastore } from '@ipamkit/models';
import { createEngineDatastore } from '../engine/engine-datastore.js';
import { migrate } from './schema.js';
import { SqliteEngine } from './sqlite-engine.js';
import { translateSqliteError } from './translate-sqlite-error.js';

export interface SqliteDatastoreOptions {
  readonly path: string;
  /** How long a write waits for another process's transaction (SQLite busy_timeout; default 5 000 ms). */
  readonly busyTimeoutMs?: number;
  /** How often an idle watch polls the change log, which also carries other processes' writes (default 100 ms). */
  readonly pollIntervalMs?: number;
  /** Change-log entries kept for watches (default 100 000). */
  readonly changeLogRetention?: number;
  /** `NORMAL` (default) survives process crashes; `FULL` also survives power loss, ~6× slower per commit. */
  readonly synchronous?: 'NORMAL' | 'FULL';
}

/** Creates the file readable by its owner only (mode 0600) before SQLite opens it; an existing file is left as it is. */
function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * The embedded datastore for one host: many processes (CNI invocations) may open the same file at
 * once; WAL plus BEGIN IMMEDIATE serialise their writes and CAS on revisions catches stale reads.
 */
export function createSqliteDatastore(options: SqliteDatastoreOptions): Datastore {
  createPrivateFile(options.path);
  const db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.defaultSafeIntegers(true);
    migrate(db);
  } catch (err) {
    db.close();
    throw translateSqliteError(err);
  }
  const engine = new SqliteEngine(db, { changeLogRetention: options.changeLogRetention ?? 100_000 });
  return createEngineDatastore({ kind: 'sqlite', engine, pollIntervalMs: options.pollIntervalMs ?? 100 });
}
