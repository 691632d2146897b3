import { orUndefined, parseSelector, type IPPool } from '@ipamkit/models';
import { messageOf, PluginUnavailableError } from '../errors.js';
import { SHORT_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

function usableForNode(pool: IPPool, labels: Record<string, string>): boolean {
  if (pool.disabled === true) return false;
  if (pool.allowedUses !== undefined && !pool.allowedUses.includes('Workload')) return false;
  if (pool.assignmentMode === 'Manual') return false;
  try {
    return parseSelector(pool.nodeSelector ?? 'all()').evaluate(labels);
  } catch {
    return false;
  }
}

/**
 * STATUS (1.1): code 50 when the datastore cannot be read, or when no enabled Workload pool that
 * selects this node has a free address; success otherwise (design/cni.md, "STATUS and GC").
 */
export async function cmdStatus(inv: Invocation): Promise<string> {
  let free: bigint;
  try {
    free = await withDeadline(inv.deadline, SHORT_DEADLINE_MS, 'reading pools', async () => {
      const ds = await inv.store();
      const ipam = await inv.ipam();
      const pools = await ds.ipPools.list();
      const labels = (await orUndefined(ds.nodes.get(inv.node)))?.labels ?? {};
      const names = pools.filter((p) => usableForNode(p, labels)).map((p) => p.name);
      if (names.length === 0) return 0n;
      const usage = await ipam.getUtilization({ pools: names });
      return usage.reduce((sum, u) => sum + u.available, 0n);
    });
  } catch (err) {
    throw new PluginUnavailableError(`the datastore is not reachable: ${messageOf(err)}`, { cause: err });
  }
  if (free === 0n) throw new PluginUnavailableError(`no enabled IP pool has a free address for node ${inv.node}`);
  return '';
}
