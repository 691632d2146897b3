import type { GcController } from '@ipamkit/gc';
import { type Datastore, sleep } from '@ipamkit/models';
import { allocatedAddresses, orphanViolations } from '../checks/accounting-checks.js';

/** What must be true once the GC has caught up with everything the run deleted. */
export interface SettleTarget {
  readonly goneHandles: ReadonlySet<string>;
  readonly deletedNodes: ReadonlySet<string>;
}

/** What still stands between the datastore and the settled state; empty when settled. */
export async function unsettled(ds: Datastore, target: SettleTarget): Promise<string[]> {
  const [blocks, affinities] = await Promise.all([ds.blocks.list(), ds.affinities.list()]);
  const addresses = allocatedAddresses(blocks);
  const left = orphanViolations(addresses, target.goneHandles, 'its pod is gone');
  for (const a of addresses) {
    const node = a.attrs['node'];
    if (node !== undefined && target.deletedNodes.has(node)) left.push(`${a.ip} (handle ${a.handleId ?? ''}) still belongs to deleted node ${node}`);
  }
  for (const aff of affinities) {
    if (!aff.deleted && aff.type === 'host' && target.deletedNodes.has(aff.host)) left.push(`deleted node ${aff.host} still holds the affinity for ${aff.cidr}`);
  }
  return left;
}

const MAX_FAILED_PASSES = 3;

/**
 * Runs full GC passes until nothing is unsettled or the timeout passes; returns what is left.
 * The passes run on top of the GC's own loop: a full pass is what a deleted node triggers anyway.
 */
export async function settle(args: { ds: Datastore; gc: GcController; target: SettleTarget; timeoutMs: number; pollMs: number }): Promise<{ left: string[]; ms: number }> {
  const start = Date.now();
  let failedPasses = 0;
  for (;;) {
    await args.gc.whenIdle();
    let passError: string | undefined;
    try {
      await args.gc.syncNow({ full: true });
      failedPasses = 0;
    } catch (err) {
      // A pass that keeps failing is itself a finding (a corrupt block makes releases fail): report
      // it with what is left, and let the final check name the cause.
      failedPasses += 1;
      passError = `GC pass failed ${failedPasses} time(s) in a row: ${err instanceof Error ? err.message : String(err)}`;
    }
    const left = await unsettled(args.ds, args.target);
    const timedOut = Date.now() - start > args.timeoutMs;
    if (passError !== undefined && (failedPasses >= MAX_FAILED_PASSES || timedOut)) return { left: [passError, ...left], ms: Date.now() - start };
    if ((passError === undefined && left.length === 0) || timedOut) return { left, ms: Date.now() - start };
    await sleep(args.pollMs);
  }
}
