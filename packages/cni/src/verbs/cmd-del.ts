import { NotFoundError } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { detectVmiOfCall } from '../kubevirt/detect-vmi.js';
import { kubevirtDel } from '../kubevirt/kubevirt-del.js';
import { kubevirtPlan } from '../kubevirt/kubevirt-plan.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

/**
 * DEL (design/calico-callers.md#del): release by handle and by workload ID (allocations of old plugins and of
 * an earlier container of the same pod). "Already gone" is success; anything else (an unreachable
 * datastore) fails so that the runtime retries.
 */
export async function cmdDel(inv: Invocation, workload: Workload): Promise<string> {
  const detection = await detectVmiOfCall(() => inv.kubeReader(), workload);
  // A vanished launcher pod: Calico returns success without releasing (the GC reclaims, design/calico-callers.md#del).
  if (detection.kind === 'podGone') {
    inv.log.info(`pod ${workload.namespace}/${workload.pod} no longer exists: nothing released`);
    return '';
  }
  const ipam = await inv.ipam();
  const plan = detection.kind === 'vmi' ? await kubevirtPlan(await inv.store(), inv.conf.name, workload, detection.vmi) : undefined;
  if (plan?.persistence === true) {
    await inv.locked(() => withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'releasing VM addresses', () => kubevirtDel(ipam, plan, workload, inv.log)));
    return '';
  }
  await inv.locked(() =>
    withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'releasing addresses', async () => {
      // Both releases go out together (they touch different handles; a block both use is settled by
      // its compare-and-swap), so a DEL waits for one chain of round trips, not two. The first
      // failure in handle order is the one reported.
      const handles = [...new Set([workload.handleId, workload.workloadId])];
      // The container's handle (first) is expected to exist, assigned on this node: the blocks its
      // last ADD used are read with it. The workload ID seldom exists: its handle is looked up alone,
      // before any transaction (on SQLite, no write lock for it; design/cni.md, "DEL").
      const outcomes = await Promise.allSettled(handles.map((handle, i) => ipam.releaseByHandle(handle, i === 0 ? { host: inv.node } : { seldomExists: true })));
      let failure: { err: unknown } | undefined;
      outcomes.forEach((outcome, i) => {
        const handle = handles[i] ?? '';
        if (outcome.status === 'fulfilled') inv.log.info(`released the addresses of handle ${handle}`);
        else if (outcome.reason instanceof NotFoundError) inv.log.debug(`handle ${handle} holds no addresses`);
        else failure ??= { err: outcome.reason };
      });
      if (failure !== undefined) throw failure.err;
    }),
  );
  return '';
}
