import { DatastoreUnavailableError, IpamError } from '@ipamkit/models';
import { DatastoreStorageError } from '../errors.js';

interface SqliteErrorLike {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

function isSqliteError(err: unknown): err is SqliteErrorLike {
  return err instanceof Error && err.name === 'SqliteError' && typeof (err as { code?: unknown }).code === 'string';
}

/**
 * better-sqlite3's errors in the models' taxonomy. SQLITE_BUSY (busy timeout ran out, including
 * BUSY_SNAPSHOT/BUSY_RECOVERY) and SQLITE_LOCKED are transient; any other SQLite failure is a
 * storage fault no retry fixes. Our own errors pass through.
 */
export function translateSqliteError(err: unknown): unknown {
  if (err instanceof IpamError || !isSqliteError(err)) return err;
  if (err.code.startsWith('SQLITE_BUSY') || err.code.startsWith('SQLITE_LOCKED')) {
    return new DatastoreUnavailableError(`sqlite datastore is busy (${err.code}): ${err.message}`, { cause: err });
  }
  return new DatastoreStorageError(`sqlite datastore failed (${err.code}): ${err.message}`, { cause: err });
}
