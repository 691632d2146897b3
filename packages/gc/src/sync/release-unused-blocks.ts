import { FLANNEL_MIGRATION_LABEL } from '../constants.js';
import type { SyncDeps } from './sync-deps.js';

/** A node mid-migration from Flannel keeps its blocks (design/calico-callers.md#empty-block-release). Errors hold too. */
async function nodeIsBeingMigrated(deps: SyncDeps, node: string): Promise<boolean> {
  const resolution = await deps.resolver.resolve(node);
  if ('error' in resolution) return true;
  if (resolution.knode === '') return false;
  try {
    const value = deps.view.getNode(resolution.knode)?.labels[FLANNEL_MIGRATION_LABEL];
    return value !== undefined && value !== 'calico';
  } catch {
    return true;
  }
}

/**
 * Empty-block release (design/calico-callers.md#empty-block-release): an affine block with no allocations goes once it has been
 * seen empty twice, more than the grace period apart, with no use in between; never a node's last
 * block. The core's `mustBeEmpty` check is the backstop against a racing allocation.
 */
export async function releaseUnusedBlocks(deps: SyncDeps): Promise<number> {
  const { state } = deps;
  const nowMs = deps.clock.now().getTime();
  let released = 0;
  for (const [cidr, node] of [...state.emptyBlocks]) {
    if ((state.blocksByNode.get(node)?.size ?? 0) <= 1) continue;
    if (await nodeIsBeingMigrated(deps, node)) {
      state.markBlockInUse(cidr);
      continue;
    }
    if (!state.markBlockEmpty(cidr, nowMs, deps.settings.leakGracePeriodMs)) continue;
    const block = state.allBlocks.get(cidr);
    if (block === undefined) continue;
    try {
      // The core reads only the CIDR and the affinity, and re-reads the stored block itself.
      await deps.ipam.releaseBlockAffinity(
        { cidr: block.cidr, ...(block.affinity === undefined ? {} : { affinity: block.affinity }), allocations: [], unallocated: [], attributes: [], sequenceNumber: block.sequenceNumber, sequenceNumberForAllocation: {}, deleted: false },
        true,
      );
    } catch (err) {
      deps.log.warn('failed to release empty block; will retry', { cidr, error: String(err) });
      continue;
    }
    // The block is gone (or someone else's): forget it now; a surviving block is re-learned
    // from its next update.
    state.forgetBlock(cidr);
    released++;
  }
  return released;
}
