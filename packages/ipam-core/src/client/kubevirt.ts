import { vmHandleId } from '@ipamkit/models';
import { OwnerPreconditionError } from '../block/block-errors.js';
import { type AttributeOwner, ownerMatches, type OwnerAttributeUpdates, type OwnerAttributePreconditions } from '../block/set-owner-attributes-in-block.js';
import { AlternateOwnerEmptyError, AlternateOwnerMismatchError } from './client-errors.js';
import type { IpamClient } from './client-types.js';

/** Owner-swap attempts per address (Calico's vmipam swapRetries). */
export const VM_OWNER_SWAP_RETRIES = 5;

/** The handle of a KubeVirt VM with persistent addresses: `<network>.vmi.<namespace>.<vm>`, ≤ 128 chars (design/calico-ipam.md#handle-ids). */
export function createVMHandleId(networkName: string, namespace: string, vmName: string): string {
  return vmHandleId(networkName, namespace, vmName);
}

function ownerOf(attrs: Record<string, string>): AttributeOwner {
  return { namespace: attrs.namespace ?? '', name: attrs.pod ?? '' };
}

function isEmptyOwner(attrs: Record<string, string>): boolean {
  return Object.keys(attrs).length === 0;
}

async function swapOne(ipam: IpamClient, ip: string, handleId: string, target: AttributeOwner): Promise<void> {
  for (let attempt = 0; attempt < VM_OWNER_SWAP_RETRIES; attempt += 1) {
    const current = await ipam.getAssignmentAttributes(ip);
    if (current.handleId !== handleId) throw new AlternateOwnerMismatchError(`IP ${ip} belongs to handle ${current.handleId ?? '(none)'}, not ${handleId}`);
    if (ownerMatches(target, current.activeOwnerAttrs)) return;
    if (isEmptyOwner(current.alternateOwnerAttrs)) throw new AlternateOwnerEmptyError(`IP ${ip} has no alternate owner to promote`);
    if (!ownerMatches(target, current.alternateOwnerAttrs)) {
      throw new AlternateOwnerMismatchError(`the alternate owner of ${ip} is not pod ${target.namespace}/${target.name}`);
    }
    const updates: OwnerAttributeUpdates = { activeOwnerAttrs: current.alternateOwnerAttrs };
    const pre: OwnerAttributePreconditions = { expectedAlternateOwner: target };
    if (isEmptyOwner(current.activeOwnerAttrs)) {
      updates.clearAlternateOwner = true;
      pre.verifyActiveOwnerEmpty = true;
    } else {
      updates.alternateOwnerAttrs = current.activeOwnerAttrs;
      pre.expectedActiveOwner = ownerOf(current.activeOwnerAttrs);
    }
    try {
      await ipam.setOwnerAttributes(ip, handleId, updates, pre);
      return;
    } catch (err) {
      if (!(err instanceof OwnerPreconditionError)) throw err;
    }
  }
  throw new Error(`max retries (${VM_OWNER_SWAP_RETRIES}) exceeded for IP ${ip}`);
}

/**
 * After a live migration, make `targetPod` the active owner of the VM's addresses and the old
 * active owner the alternate (design/calico-ipam.md#owner-swap-after-migration). Idempotent. Continues past per-address failures
 * and throws the last one, except the two swap errors, which stop at once.
 */
export async function ensureActiveVMOwnerAttrs(
  ipam: IpamClient,
  args: { networkName: string; namespace: string; vmiName: string; targetPod: AttributeOwner },
): Promise<void> {
  const handleId = createVMHandleId(args.networkName, args.namespace, args.vmiName);
  const ips = await ipam.ipsByHandle(handleId);
  if (ips.length === 0) throw new Error(`no IPs allocated to VM handle ${handleId}`);
  let last: Error | undefined;
  for (const ip of ips) {
    try {
      await swapOne(ipam, ip, handleId, args.targetPod);
    } catch (err) {
      if (err instanceof AlternateOwnerEmptyError || err instanceof AlternateOwnerMismatchError) throw err;
      last = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (last !== undefined) throw last;
}
