import { affinityRowKey, type KindName } from './kinds.js';
import type { StampFilter } from './row-engine.js';

/**
 * Whether a row of `kind` stored under `key` may be one of the rows `filter` selects, judged from
 * the key alone (the row may be gone). Never false for a row the filter selects: a transaction's
 * validation must see every change to what its body listed or stamped (design/ipam-datastore.md,
 * "Optimistic transactions"); it may be true for a row the filter does not select (a retry too
 * many, never a stale commit).
 *
 * The indexed columns are functions of the key: a block's key is its CIDR, an affinity's is
 * `<type>/<host>/<cidr>` (`affinityRowKey`), and a row's IP version is 6 exactly when its CIDR
 * holds a ':'. Other kinds have no indexed column, so any filter on one matches conservatively.
 */
export function keyMayMatch(kind: KindName, key: string, filter: StampFilter): boolean {
  if (filter.key !== undefined && filter.key !== key) return false;
  const { host, type, ipVersion } = filter;
  if (host === undefined && type === undefined && ipVersion === undefined) return true;
  if (kind === 'block') return ipVersion === undefined || (key.includes(':') ? 6 : 4) === ipVersion;
  if (kind !== 'affinity') return true;
  // The CIDR is what follows the prefix when both host and type are known; otherwise the key is
  // tested only for what every selected row's key must hold.
  let cidr: string | undefined;
  if (host !== undefined && type !== undefined) {
    const prefix = affinityRowKey(type, host, '');
    if (!key.startsWith(prefix)) return false;
    cidr = key.slice(prefix.length);
  } else if (type !== undefined && !key.startsWith(`${type}/`)) return false;
  else if (host !== undefined && !key.includes(`/${host}/`)) return false;
  if (ipVersion === 6) return key.includes(':');
  if (ipVersion === 4) return cidr === undefined || !cidr.includes(':');
  return true;
}
