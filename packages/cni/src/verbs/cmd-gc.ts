import { ipsForHandle, sequenceNumberFor, type ReleaseOptions } from '@ipamkit/ipam-core';
import {
  BadHandleError,
  BadSequenceNumberError,
  isCniHandleOfNetwork,
  isLoadBalancerHandleId,
  orUndefined,
  parseTunnelHandleId,
  WINDOWS_RESERVED_HANDLE,
  type IPAMHandle,
} from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

/** Pure: the handles of `network` whose container is not a valid attachment. */
export function staleHandles(handles: readonly IPAMHandle[], network: string, validContainers: ReadonlySet<string>): IPAMHandle[] {
  return handles.filter((h) => {
    const id = h.handleId;
    if (!isCniHandleOfNetwork(id, network)) return false;
    if (parseTunnelHandleId(id) !== undefined || isLoadBalancerHandleId(id) || id === WINDOWS_RESERVED_HANDLE) return false;
    return !validContainers.has(id.slice(network.length + 1));
  });
}

/**
 * GC (CNI 1.1): releases this network's allocations whose container is not in
 * `cni.dev/valid-attachments`. Each address is released with the handle and the sequence number
 * read just before, so an address re-allocated in between is left alone.
 */
export async function cmdGc(inv: Invocation): Promise<string> {
  const attachments = inv.conf.validAttachments;
  if (attachments === undefined) throw new NetworkConfigError('GC needs cni.dev/valid-attachments in the network config');
  const valid = new Set(attachments.map((a) => a.containerID));
  const ds = await inv.store();
  const ipam = await inv.ipam();
  const stale = staleHandles(await ds.handles.list(), inv.conf.name, valid);
  const releases: ReleaseOptions[] = [];
  for (const handle of stale) {
    for (const cidr of Object.keys(handle.block)) {
      const block = await orUndefined(ds.blocks.get(cidr));
      if (block === undefined) continue;
      for (const address of ipsForHandle(block, handle.handleId)) {
        const sequenceNumber = sequenceNumberFor(block, address);
        releases.push(sequenceNumber === undefined ? { address, handle: handle.handleId } : { address, handle: handle.handleId, sequenceNumber });
      }
    }
  }
  if (releases.length === 0) return '';
  await inv.locked(() =>
    withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'garbage collecting', async () => {
      try {
        await ipam.releaseIPs(releases);
      } catch (err) {
        // Re-allocated under our feet: those addresses are no longer garbage.
        if (!(err instanceof BadSequenceNumberError || err instanceof BadHandleError)) throw err;
        inv.log.info(`GC skipped addresses that changed while collecting: ${err.message}`);
      }
    }),
  );
  inv.log.info(`GC released ${releases.length} address(es) of ${stale.length} stale attachment(s)`);
  return '';
}
