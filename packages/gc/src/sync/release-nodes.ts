import type { SyncDeps } from './sync-deps.js';

/**
 * The last step for a deleted node (design/calico-callers.md#node-deletion): its host affinities and empty blocks, after
 * its addresses went in the same pass. Each node succeeds or fails on its own, and a failing node
 * stays dirty for the retry; the dirty set never grows past the failing nodes (Calico #8643).
 */
export async function releaseNodes(deps: SyncDeps, nodes: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const node of nodes) {
    try {
      await deps.ipam.releaseHostAffinities({ affinityType: 'host', host: node }, true);
    } catch (err) {
      deps.log.warn('failed to clean up deleted node; will retry', { node, error: String(err) });
      failed.push(node);
      // Dirty, so the backoff retry (a dirty-only pass) comes back to it even when the node was
      // found by a full scan with nothing but empty blocks.
      deps.state.markDirty(node);
      continue;
    }
    deps.metrics?.forgetNodeReclamations(node);
    deps.state.markClean(node);
  }
  return failed;
}
