import { bitsOf, type IPVersion, ipVersionOfAddress } from '@ipamkit/models';
import { ipsForHandle, sequenceNumberFor } from '../block/block-queries.js';
import { sanitizeHandle } from '../block/block-state.js';
import { type ClientDeps, collectedBlock, orUndefined } from './client-deps.js';
import { InsufficientIPsByHandleError } from './client-errors.js';
import { readIpamConfig } from './ipam-config-ops.js';

/** One address of a handle and the sequence number it was allocated under. */
/**
 * IPsByHandle (design/calico-ipam.md#ipsbyhandle): the handle's addresses with their sequence numbers, cooldown excluded. The handle and the
 * config are read together, then every block of the handle in one parallel wave (Calico reads
 * them one by one). Throws NotFoundError for an unknown handle.
 */
export async function handleAllocations(deps: ClientDeps, handleId: string): Promise<{ readonly ip: string; readonly sequenceNumber: bigint }[]> {
  const id = sanitizeHandle(handleId) ?? handleId;
  const [handle, config] = await Promise.all([deps.ds.handles.get(id), readIpamConfig(deps.ds, deps.windowsHost)]);
  const cidrs = Object.keys(handle.block);
  const blocks = await Promise.all(cidrs.map((cidr) => orUndefined(deps.ds.blocks.get(cidr)).catch(() => undefined)));
  const now = deps.clock.now();
  return blocks.flatMap((stored) => {
    if (stored === undefined) return [];
    const block = collectedBlock(stored, config, now).block;
    return ipsForHandle(block, id).map((ip) => ({ ip, sequenceNumber: sequenceNumberFor(block, ip) ?? block.sequenceNumber }));
  });
}

/** IPsByHandle (design/calico-ipam.md#ipsbyhandle): the handle's addresses, cooldown excluded. */
export async function ipsByHandle(deps: ClientDeps, handleId: string): Promise<string[]> {
  return (await handleAllocations(deps, handleId)).map((a) => a.ip);
}

/**
 * handleMaxAllocReached of design/calico-ipam.md#per-handle-caps: a capped handle that already holds `num` addresses
 * of the family returns them (as /32 or /128, as Calico does) with their sequence numbers; fewer
 * means a concurrent assign is in flight (InsufficientIPsByHandleError, retried by the caller).
 */
export async function existingHandleAddresses(
  deps: ClientDeps,
  handleId: string,
  num: number,
  version: IPVersion,
): Promise<{ ips: string[]; sequenceNumbers: bigint[] }> {
  const family = (await handleAllocations(deps, handleId)).filter((a) => ipVersionOfAddress(a.ip) === version).slice(0, num);
  if (family.length < num) throw new InsufficientIPsByHandleError(handleId, family.length, num);
  return { ips: family.map((a) => `${a.ip}/${bitsOf(version)}`), sequenceNumbers: family.map((a) => a.sequenceNumber) };
}
