import type { IpamClient } from '@ipamkit/ipam-core';
import { bitsOf, ipVersionOfAddress, NotFoundError } from '@ipamkit/models';
import { AllocationError, messageOf } from '../errors.js';
import type { KubevirtPlan } from './kubevirt-plan.js';


/**
 * ADD with persistence, reuse step (design/calico-callers.md#kubevirt): when the VM handle already holds
 * addresses, record this pod as their active owner (source) or alternate owner (migration target)
 * and answer with them. Undefined means "allocate normally under the VM handle".
 */
export async function reuseVmAddresses(
  ipam: IpamClient,
  plan: KubevirtPlan,
  attrs: Record<string, string>,
): Promise<{ addresses: string[]; routes: boolean } | undefined> {
  const ips = await ipam.ipsByHandle(plan.handleId).catch((err: unknown) => {
    if (err instanceof NotFoundError) return [];
    throw new AllocationError(`failed to get existing IPs for VM handle ${plan.handleId}: ${messageOf(err)}`, { cause: err });
  });
  const target = plan.vmi.migrationJobUid !== undefined;
  if (ips.length === 0) {
    if (target) throw new AllocationError(`migration target pod but no IP allocated to VM handle ${plan.handleId}`);
    return undefined;
  }
  for (const ip of ips) {
    await ipam.setOwnerAttributes(ip, plan.handleId, target ? { alternateOwnerAttrs: attrs } : { activeOwnerAttrs: attrs }).catch((err: unknown) => {
      throw new AllocationError(`failed to set owner attributes for IP ${ip}: ${messageOf(err)}`, { cause: err });
    });
  }
  // A migration target gets no routes: the main plugin then leaves host routes to the source.
  return { addresses: ips.map((ip) => `${ip}/${bitsOf(ipVersionOfAddress(ip))}`), routes: !target };
}
