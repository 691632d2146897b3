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
