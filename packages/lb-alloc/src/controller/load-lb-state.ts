import { addressAt, type Datastore, type IPPool } from '@ipamkit/models';
import { LOAD_BALANCER_HOST } from '../constants.js';
import { AllocationTracker } from './allocation-tracker.js';

/** The pool cache of design/calico-callers.md#pool-cache: pools allowing LoadBalancer use and not being deleted (disabled kept). */
export async function loadLoadBalancerPools(ds: Datastore): Promise<IPPool[]> {
  const pools = await ds.ipPools.list();
  return pools.filter((p) => p.deletionTimestamp === undefined && (p.allowedUses ?? []).includes('LoadBalancer'));
}

export interface LoadTrackerResult {
  readonly tracker: AllocationTracker;
  /** Allocations in LoadBalancer blocks without `service`/`namespace` attributes (ignored, design/calico-callers.md#allocation-tracker). */
  readonly skipped: number;
}

/**
 * Rebuilds the tracker from every `virtual:load-balancer` block (design/calico-callers.md#allocation-tracker), the full picture of
 * existing allocations that must be known before the first assignment (design/calico-callers.md#cold-start-and-events cold start).
 * Listing the datastore replaces upstream's syncer feed: the result is the same set of entries.
 */
export async function loadTracker(ds: Datastore): Promise<LoadTrackerResult> {
  const tracker = new AllocationTracker();
  let skipped = 0;
  for (const block of await ds.blocks.list()) {
    if (block.affinity?.type !== 'virtual' || block.affinity.host !== LOAD_BALANCER_HOST) continue;
    block.allocations.forEach((attrIndex, ordinal) => {
      if (attrIndex === null) return;
      const attr = block.attributes[attrIndex];
      const service = attr?.activeOwnerAttrs?.['service'];
      const namespace = attr?.activeOwnerAttrs?.['namespace'];
      if (attr?.handleId === undefined || service === undefined || namespace === undefined) {
        skipped++;
        return;
      }
      tracker.assignToBlock(block.cidr, addressAt(block.cidr, ordinal), { handle: attr.handleId, name: service, namespace });
    });
  }
  return { tracker, skipped };
}
