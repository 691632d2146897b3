import type { IpamClient } from '@ipamkit/ipam-core';
import { IPInCooldownError, NotFoundError, orUndefined } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { AllocationError, messageOf } from '../errors.js';
import type { Logger } from '@ipamkit/models';
import type { KubevirtPlan } from './kubevirt-plan.js';

const isOwner = (attrs: Record<string, string>, w: Workload): boolean => attrs.pod === w.pod && attrs.namespace === w.namespace;
const empty = (attrs: Record<string, string>): boolean => Object.keys(attrs).length === 0;

/**
 * DEL with persistence (design/calico-callers.md#kubevirt): clear this pod from the owners of the VM's addresses,
 * and release them only when the VM (or VMI) is being deleted and no owner is left. Unlike Calico,
 * a VM handle that no longer exists is success (there is nothing to keep or release).
 */
export async function kubevirtDel(ipam: IpamClient, plan: KubevirtPlan, workload: Workload, log: Logger): Promise<void> {
  const ips = await orUndefined(ipam.ipsByHandle(plan.handleId));
  if (ips === undefined) return;
  const me = { namespace: workload.namespace, name: workload.pod };
  for (const ip of ips) {
    const attrs = await ipam.getAssignmentAttributes(ip).catch(() => undefined);
    if (attrs === undefined) continue;
    // A lost precondition (owners swapped concurrently) fails DEL so that the runtime retries.
    if (isOwner(attrs.activeOwnerAttrs, workload)) await ipam.setOwnerAttributes(ip, plan.handleId, { clearActiveOwner: true }, { expectedActiveOwner: me });
    else if (isOwner(attrs.alternateOwnerAttrs, workload)) await ipam.setOwnerAttributes(ip, plan.handleId, { clearAlternateOwner: true }, { expectedAlternateOwner: me });
  }
  let ownersRemain = false;
  for (const ip of ips) {
    try {
      const attrs = await ipam.getAssignmentAttributes(ip);
      if (!empty(attrs.activeOwnerAttrs) || !empty(attrs.alternateOwnerAttrs)) {
        ownersRemain = true;
        break;
      }
    } catch (err) {
      if (err instanceof NotFoundError || err instanceof IPInCooldownError) continue;
      throw new AllocationError(`failed to verify owner attributes after cleanup for IP ${ip}: ${messageOf(err)}`, { cause: err });
    }
  }
  if (!plan.vmi.shouldRelease || ownersRemain) {
    log.info(`kept the addresses of VM handle ${plan.handleId} (${ownersRemain ? 'other owners remain' : 'the VM is not being deleted'})`);
    return;
  }
  try {
    await ipam.releaseByHandle(plan.handleId);
    log.info(`released the addresses of VM handle ${plan.handleId}`);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
