import { type AllocationBlock, type IPAMConfig, selectsNode } from '@ipamkit/models';
import { type ClientDeps, orUndefined } from './client-deps.js';
import { defaultedPools, enabledPools, poolContaining } from './pool-qualification.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';

/**
 * After a release (spec/core.md §12.7): if the block's host is no longer selected by the block's
 * pool, give the block up once it is empty. Best effort: every failure is ignored, as in Calico.
 */
export async function ensureConsistentAffinity(deps: ClientDeps, config: IPAMConfig, block: AllocationBlock): Promise<void> {
  const owner = block.affinity;
  if (owner?.type !== 'host' || owner.host === '') return;
  try {
    const [node, pools] = await Promise.all([orUndefined(deps.ds.nodes.get(owner.host)), deps.ds.ipPools.list()]);
    if (node === undefined) return;
    const pool = poolContaining(enabledPools(defaultedPools(pools)), block.cidr);
    if (pool === undefined || selectsNode(pool, node.labels)) return;
    await releaseBlockAffinityOf(deps, config, owner, block.cidr, { requireEmpty: true });
  } catch {
    // Not empty, already released, someone else's, or unreachable: the next release tries again.
  }
}
