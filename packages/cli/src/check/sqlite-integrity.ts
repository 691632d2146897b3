import { DatastoreStorageError } from '@ipamkit/ipam-datastore';
import type { Finding } from './structural-findings.js';

/**
 * `PRAGMA quick_check` of the SQLite file behind a check, as `integrity` findings (design/cli.md
 * "Classifying allocations"); undefined on other backends. The SQLite module loads only here, so
 * etcd and Kubernetes runs never load better-sqlite3.
 */
export async function sqliteIntegrityOf(path: string | undefined): Promise<Finding[] | undefined> {
  if (path === undefined) return undefined;
  const { sqliteQuickCheck } = await import('@ipamkit/ipam-datastore/sqlite');
  return sqliteQuickCheck(path).map((line) => ({ kind: 'integrity', subject: path, reason: `PRAGMA quick_check: ${line.replace(/\s*\n\s*/g, ' ')}`, problem: true }));
}

/**
 * Runs the check; when the file is too damaged to list and quick_check found problems, the error
 * carries them, so the operator learns why the read failed (exit 3, design/cli.md "Exit codes").
 */
export async function checkWithIntegrity<T>(integrity: readonly Finding[] | undefined, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (integrity === undefined || integrity.length === 0) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new DatastoreStorageError(`${why}; ${integrity.map((f) => f.reason).join('; ')}`, { cause: err });
  }
}
