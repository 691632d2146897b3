import { NotFoundError } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

/**
 * DEL (spec/cni.md §15): release by handle, then by workload ID (allocations of old plugins and of
 * an earlier container of the same pod). "Already gone" is success; anything else (an unreachable
 * datastore) fails so that the runtime retries.
 */
export async function cmdDel(inv: Invocation, workload: Workload): Promise<string> {
  const ipam = await inv.ipam();
  await inv.locked(() =>
    withDeadline(ALLOCATION_DEADLINE_MS, 'releasing addresses', async () => {
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
