import { bitsOf, type IPVersion, ipVersionOfAddress } from '@ipamkit/models';
import { ipsForHandle } from '../block/block-queries.js';
import { sanitizeHandle } from '../block/block-state.js';
import { type ClientDeps, collectedBlock, orUndefined } from './client-deps.js';
import { InsufficientIPsByHandleError } from './client-errors.js';
import { readIpamConfig } from './ipam-config-ops.js';

/**
 * IPsByHandle (spec/core.md §14.2): the handle's addresses, cooldown excluded. The handle and the
 * config are read together, then every block of the handle in one parallel wave (Calico reads
 * them one by one). Throws NotFoundError for an unknown handle.
 */
export async function ipsByHandle(deps: ClientDeps, handleId: string): Promise<string[]> {
  const id = sanitizeHandle(handleId) ?? handleId;
  const [handle, config] = await Promise.all([deps.ds.handles.get(id), readIpamConfig(deps.ds, deps.windowsHost)]);
  const cidrs = Object.keys(handle.block);
  const blocks = await Promise.all(cidrs.map((cidr) => orUndefined(deps.ds.blocks.get(cidr)).catch(() => undefined)));
  const now = deps.clock.now();
  return blocks.flatMap((stored) => (stored === undefined ? [] : ipsForHandle(collectedBlock(stored, config, now).block, id)));
}

/**
 * handleMaxAllocReached of spec/core.md §17.3: a capped handle that already holds `num` addresses
 * of the family returns them (as /32 or /128, as Calico does); fewer means a concurrent assign is
 * in flight (InsufficientIPsByHandleError, retried by the caller).
 */
export async function existingHandleAddresses(deps: ClientDeps, handleId: string, num: number, version: IPVersion): Promise<string[]> {
  const all = await ipsByHandle(deps, handleId);
  const family = all.filter((ip) => ipVersionOfAddress(ip) === version);
  if (family.length < num) throw new InsufficientIPsByHandleError(handleId, family.length, num);
  return family.slice(0, num).map((ip) => `${ip}/${bitsOf(version)}`);
}
