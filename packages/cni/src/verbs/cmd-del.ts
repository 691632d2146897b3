import { NotFoundError } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { CniError } from '../errors.js';
import { detectVmi } from '../kubevirt/detect-vmi.js';
import { kubevirtDel } from '../kubevirt/kubevirt-del.js';
import { kubevirtPlan } from '../kubevirt/kubevirt-plan.js';
import { toCniError } from '../runtime/to-cni-error.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

/**
 * DEL (design/calico-callers.md#del): release by handle, then by workload ID (allocations of old plugins and of
 * an earlier container of the same pod). "Already gone" is success; anything else (an unreachable
 * datastore) fails so that the runtime retries.
 */
export async function cmdDel(inv: Invocation, workload: Workload): Promise<string> {
  let detection;
  try {
    detection = await detectVmi(inv.kubeReader(), workload);
  } catch (err) {
    const cni = toCniError(err);
    throw new CniError(cni.code, `failed to get VMI info: ${cni.message}`, '', { cause: err });
  }
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
      for (const handle of [workload.handleId, workload.workloadId]) {
        try {
          await ipam.releaseByHandle(handle);
          inv.log.info(`released the addresses of handle ${handle}`);
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
          inv.log.debug(`handle ${handle} holds no addresses`);
        }
      }
    }),
  );
  return '';
}
