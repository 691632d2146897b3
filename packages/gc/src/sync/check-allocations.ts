import type { Allocation } from '../state/allocation.js';
import { isAllocationValidCached } from '../validity/allocation-validity.js';
import type { SyncDeps } from './sync-deps.js';

function kubernetesNodeExists(deps: SyncDeps, knode: string): boolean {
  if (knode === '') return false;
  try {
    return deps.view.getNode(knode) !== undefined;
  } catch {
    return true; // a lister failure is not evidence the node is gone
  }
}

/** The grace a live node's allocation gets (design/calico-callers.md#leak-classification); undefined = leave it alone. */
function graceFor(deps: SyncDeps, a: Allocation): number | undefined {
  const lgp = deps.settings.leakGracePeriodMs;
  if (a.isVMAllocation()) return Math.max(deps.settings.vmGracePeriodMs, lgp ?? 0);
  return lgp;
}

/** The nodes a scan looks at: every node on a full scan, the dirty ones otherwise (design/calico-callers.md#gc-loop). */
function nodesToCheck(deps: SyncDeps, full: boolean): string[] {
  const { state } = deps;
  if (!full) return [...state.dirtyNodes];
  const nodes = new Set<string>(state.nodesByBlock.values());
  for (const node of state.allocationsByNode.keys()) nodes.add(node);
  // A dirty name with nothing left (its last allocation went) still needs its cleanup decided.
  for (const node of state.dirtyNodes) nodes.add(node);
  return [...nodes];
}

/**
 * Leak classification (design/calico-callers.md#leak-classification). Returns the Calico nodes that are gone and hold nothing
 * valid, for `releaseNodes`; those stay dirty until their cleanup succeeds.
 */
export async function checkAllocations(deps: SyncDeps, full: boolean): Promise<string[]> {
  const { state, clock } = deps;
  if (full) state.fullSyncRequired = false;
  const nowMs = clock.now().getTime();
  const nodesToRelease: string[] = [];
  for (const cnode of nodesToCheck(deps, full)) {
    const resolution = await deps.resolver.resolve(cnode);
    if ('error' in resolution) {
      deps.log.debug('skipping node that cannot be resolved', { node: cnode, reason: resolution.error });
      state.markClean(cnode);
      continue;
    }
    const knode = resolution.knode;
    const nodeExists = kubernetesNodeExists(deps, knode);
    const tunnels: Allocation[] = [];
    let canDelete = true;
    for (const a of state.allocationsByNode.get(cnode)?.values() ?? []) {
      a.knode = knode;
      if (a.isWindowsReserved()) continue;
      if (!a.isPodIP() && !a.isTunnelAddress()) {
        canDelete = false; // unknown source: pins the node
        continue;
      }
      if (a.isTunnelAddress()) {
        tunnels.push(a);
        continue;
      }
      if (isAllocationValidCached(a, deps.view)) {
        canDelete = false;
        state.resurrect(a);
        continue;
      }
      if (!nodeExists) {
        a.markConfirmedLeak();
      } else {
        const grace = graceFor(deps, a);
        if (grace !== undefined) a.markLeak(nowMs, grace);
      }
      if (a.isConfirmedLeak()) state.trackConfirmedLeak(a);
      else if (state.confirmedLeaks.has(a.id)) state.resurrect(a);
    }
    if (nodeExists) {
      state.markClean(cnode);
      continue;
    }
    if (!canDelete) {
      state.markClean(cnode);
      continue;
    }
    for (const t of tunnels) {
      t.markConfirmedLeak();
      state.trackConfirmedLeak(t);
    }
    nodesToRelease.push(cnode);
  }
  if (full || state.loadBalancerDirty) checkLoadBalancerAllocations(deps, nowMs);
  return nodesToRelease;
}

/**
 * Node-less LoadBalancer addresses (design/gc.md "Allocations without a node"): a candidate once
 * its Service is gone from the view, confirmed after the leak grace period like a pod on a live
 * node. Calico never examines these.
 */
function checkLoadBalancerAllocations(deps: SyncDeps, nowMs: number): void {
  const { state } = deps;
  state.markLoadBalancersClean();
  const grace = deps.settings.leakGracePeriodMs;
  for (const a of state.loadBalancerAllocations.values()) {
    if (isAllocationValidCached(a, deps.view)) {
      state.resurrect(a);
      continue;
    }
    if (grace === undefined) continue;
    a.markLeak(nowMs, grace);
    if (a.isConfirmedLeak()) state.trackConfirmedLeak(a);
  }
}
