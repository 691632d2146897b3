import { closeSync, openSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Datastore } from '@ipamkit/models';
import { createEngineDatastore } from '../engine/engine-datastore.js';
import { DatastoreConfigError } from '../errors.js';
import { leaseWriterMutex, type WriterMutexLease } from './file-writer-mutex.js';
import { ensureSchema } from './schema.js';
import { SqliteEngine } from './sqlite-engine.js';
import { translateSqliteError } from './translate-sqlite-error.js';

export interface SqliteDatastoreOptions {
  readonly path: string;
  /**
   * Open for reading only: the file must exist with a current schema, nothing is ever created or
   * migrated, and every write fails with `DatastoreReadOnlyError`. Default false.
   */
  readonly readonly?: boolean;
  /** How long a write waits for another process's transaction (SQLite busy_timeout; default 5 000 ms). */
  readonly busyTimeoutMs?: number;
  /** How often an idle watch polls the change log, which also carries other processes' writes (default 100 ms). */
  readonly pollIntervalMs?: number;
  /** Change-log entries kept for watches (default 100 000). */
  readonly changeLogRetention?: number;
  /** `NORMAL` (default) survives process crashes; `FULL` also survives power loss, ~6× slower per commit. */
  readonly synchronous?: 'NORMAL' | 'FULL';
  /**
   * For processes that exit without closing (a CNI call): once the WAL holds this many pages, a
   * commit checkpoints it and truncates it, so the next process does not rebuild its index from a
   * long WAL (design/ipam-datastore.md, "Short-lived processes and the WAL"). Default: unset, SQLite
   * checkpoints on its own (every 1,000 pages, and on the last close).
   */
  readonly walTruncatePages?: number;
  /**
   * Run `transact` bodies without the write lock, which is then taken only to validate their reads
   * and apply their writes; a body whose reads another writer changed runs once more holding the
   * lock (design/ipam-datastore.md, "Optimistic transactions"). Default false: on a 2-core machine
   * sixteen writer processes made fewer pairs per second with it.
   */
  readonly optimisticTransactions?: boolean;
}

function existsAlready(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Creates the file readable by its owner only (mode 0600) before SQLite opens it; an existing file is left as it is. */
function createPrivateFile(path: string): void {
  // An existing file (every open but the first) costs one stat, not a thrown EEXIST; a stat that
  // fails otherwise leaves the error to the open below.
  if (existsAlready(path)) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** A read-only open needs an existing regular file; it never creates the file or its directory. */
function requireExistingFile(path: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new DatastoreConfigError(`no ipamkit database at ${path}`);
    throw new DatastoreConfigError(`cannot open the ipamkit database at ${path} (${code ?? 'unknown error'})`, { cause: err });
  }
  if (!isFile) throw new DatastoreConfigError(`${path} is not a file, so not an ipamkit database`);
}

/**
 * Connection settings that take no write lock (design/ipam-datastore.md, "Opening a file"). WAL is
 * a property of the file: set only when the file is not in WAL yet (a new file), which does write.
 */
function configure(db: Database.Database, options: SqliteDatastoreOptions): void {
  db.defaultSafeIntegers(true);
  if (options.readonly !== true && db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
}

function positivePages(pages: number): number {
  if (!Number.isSafeInteger(pages) || pages < 1) throw new DatastoreConfigError(`walTruncatePages must be a positive integer, not ${String(pages)}`);
  return pages;
}

/**
 * The embedded datastore for one host: many processes (CNI invocations) may open the same file at
 * once; WAL plus BEGIN IMMEDIATE serialise their writes and CAS on revisions catches stale reads.
 * Handles on the same file in one process share one writer mutex, taken before BEGIN IMMEDIATE
 * (design/ipam-datastore.md, "One writer per file in a process").
 */
export function createSqliteDatastore(options: SqliteDatastoreOptions): Datastore {
  const readonly = options.readonly === true;
  if (readonly) requireExistingFile(options.path);
  else createPrivateFile(options.path);
  let db: Database.Database;
  try {
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000, readonly, fileMustExist: readonly });
  } catch (err) {
    throw translateSqliteError(err);
  }
  let lease: WriterMutexLease | undefined;
  let engine: SqliteEngine;
  try {
    configure(db, options);
    ensureSchema(db, { path: options.path, readonly });
    // A read-only handle never writes, so it needs no place in the file's writer queue.
    if (!readonly) lease = leaseWriterMutex(options.path);
    engine = new SqliteEngine(db, {
      changeLogRetention: options.changeLogRetention ?? 100_000,
      path: options.path,
      writer: lease,
      optimisticTransactions: options.optimisticTransactions === true,
      ...(options.walTruncatePages === undefined ? {} : { walTruncatePages: positivePages(options.walTruncatePages) }),
    });
  } catch (err) {
    lease?.release();
    db.close();
    throw translateSqliteError(err);
  }
  return createEngineDatastore({ kind: 'sqlite', engine, pollIntervalMs: options.pollIntervalMs ?? 100 });
}
