import { type AllocationBlock, type DefaultedIPPool, type IPAMConfig, type IPPool, type Node, selectsEveryNode, selectsNode } from '@ipamkit/models';
import { type ClientDeps, orUndefined } from './client-deps.js';
import { defaultedPools, enabledPools, poolContaining } from './pool-qualification.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';

/**
 * Whether `block`'s host should give it up once it is empty (design/calico-ipam.md#affinity-management): its pool is
 * enabled and no longer selects the host's node. Pure; `node` is the block's affinity host.
 */
export function poolNoLongerSelectsHost(block: AllocationBlock, node: Node | undefined, pools: readonly IPPool[]): boolean {
  return node !== undefined && poolNoLongerSelectsHostAmong(block, node, defaultedPools(pools));
}

/**
 * `poolNoLongerSelectsHost` for pools already through `defaultedPools` (a transaction's `txPools`):
 * defaulting and sorting them again gives the same list (the defaults only fill what is unset), so
 * it is skipped (design/ipam-core.md, "Allocation cost: the ninth round (2026-12-02)").
 */
export function poolNoLongerSelectsHostAmong(block: AllocationBlock, node: Node | undefined, defaulted: readonly DefaultedIPPool[]): boolean {
  if (node === undefined) return false;
  const pool = poolContaining(enabledPools(defaulted), block.cidr);
  return pool !== undefined && !selectsNode(pool, node.labels);
}

/**
 * Whether `poolNoLongerSelectsHost` needs the block's host node to decide: only when the block's
 * enabled pool selects nodes by their labels. With no such pool (or one that selects every node,
 * the usual case) the answer is "no" whatever the node says, so a release need not read it
 * (design/ipam-core.md, "Releasing"). A selector that does not parse leaves the decision to
 * `poolNoLongerSelectsHost`, as before.
 */
export function selectionNeedsNode(block: AllocationBlock, pools: readonly IPPool[]): boolean {
  return selectionNeedsNodeAmong(block, defaultedPools(pools));
}

/** `selectionNeedsNode` for pools already through `defaultedPools` (as `poolNoLongerSelectsHostAmong`). */
export function selectionNeedsNodeAmong(block: AllocationBlock, defaulted: readonly DefaultedIPPool[]): boolean {
  const pool = poolContaining(enabledPools(defaulted), block.cidr);
  if (pool === undefined) return false;
  try {
    return !selectsEveryNode(pool);
  } catch {
    return true;
  }
}

/** Gives up the (empty) block's host affinity; best effort, every failure is ignored, as in Calico. */
export async function giveUpAffinityIfEmpty(deps: ClientDeps, config: IPAMConfig, block: AllocationBlock): Promise<void> {
  const owner = block.affinity;
  if (owner?.type !== 'host' || owner.host === '') return;
  // Not empty, already released, someone else's, or unreachable: the next release tries again.
  await releaseBlockAffinityOf(deps, config, owner, block.cidr, { requireEmpty: true }).catch(() => undefined);
}

/**
 * After a release (design/calico-ipam.md#affinity-management): if the block's host is no longer selected by the block's
 * pool, give the block up once it is empty. Best effort: every failure is ignored, as in Calico.
 * `readPools` is the pool list (a caller may have started it beside its other reads); the node is
 * read only when the pool selects by labels (`selectionNeedsNode`).
 */
export async function ensureConsistentAffinity(
  deps: ClientDeps,
  config: IPAMConfig,
  block: AllocationBlock,
  readPools: () => Promise<readonly IPPool[]> = () => deps.ds.ipPools.list(),
): Promise<void> {
  const owner = block.affinity;
  if (owner?.type !== 'host' || owner.host === '') return;
  try {
    const pools = await readPools();
    if (!selectionNeedsNode(block, pools)) return;
    const node = await orUndefined(deps.ds.nodes.get(owner.host));
    if (!poolNoLongerSelectsHost(block, node, pools)) return;
  } catch {
    return;
  }
  await giveUpAffinityIfEmpty(deps, config, block);
}
