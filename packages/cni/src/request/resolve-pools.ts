import { canonicalCidr, ipVersionOfCidr, type IPPool, type IPVersion } from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';

/**
 * ResolvePools (design/calico-callers.md#pool-resolution): each entry is a CIDR (normalised to its network) or a pool
 * name; the family must match the list. Pools are listed lazily, at most once.
 */
export async function resolvePools(entries: readonly string[], version: IPVersion, listPools: () => Promise<IPPool[]>): Promise<string[]> {
  if (entries.length === 0) return [];
  let pools: IPPool[] | undefined;
  const out: string[] = [];
  for (const entry of entries) {
    let cidr: string | undefined;
    try {
      cidr = entry.includes('/') ? canonicalCidr(entry) : undefined;
    } catch {
      cidr = undefined;
    }
    if (cidr === undefined) {
      pools ??= await listPools();
      cidr = pools.find((p) => p.name === entry)?.cidr;
      if (cidr === undefined) throw new NetworkConfigError(`error parsing pool ${JSON.stringify(entry)}: invalid CIDR address: ${entry}`);
    }
    if (ipVersionOfCidr(cidr) !== version) throw new NetworkConfigError(`${JSON.stringify(entry)} isn't a IPv${version} address`);
    out.push(cidr);
  }
  return out;
}
