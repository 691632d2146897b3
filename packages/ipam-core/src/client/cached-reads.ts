import type { DefaultedIPPool, DatastoreTx, IPAMConfig, Node } from '@ipamkit/models';
import { throughSlot } from './assign-context-cache.js';
import type { ClientDeps } from './client-deps.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { defaultedPools } from './pool-qualification.js';

// Reads inside a transaction that a caching client answers from its assignment-context cache while
// their stamps are unchanged (design/ipam-core.md, "The cached assignment context"); without a
// cache, plain reads. Each starts its read or stamp in the calling tick.

type TxReader = Pick<DatastoreTx, 'stamps' | 'ipamConfig' | 'ipPools' | 'nodes'>;

/** The IPAM config as `readIpamConfig` returns it. */
export function txConfig(deps: ClientDeps, tx: TxReader): Promise<IPAMConfig> {
  const read = (): Promise<IPAMConfig> => readIpamConfig(tx, deps.windowsHost);
  return deps.contextCache === undefined ? read() : throughSlot(deps.contextCache.configSlot(), tx.stamps, read);
}

/** Every pool with read-time defaults, in name order (`defaultedPools`). */
export function txPools(deps: ClientDeps, tx: TxReader): Promise<readonly DefaultedIPPool[]> {
  const read = async (): Promise<readonly DefaultedIPPool[]> => defaultedPools(await tx.ipPools.list());
  return deps.contextCache === undefined ? read() : throughSlot(deps.contextCache.poolsSlot(), tx.stamps, read);
}

/** The node; NotFoundError when there is none. */
export function txNode(deps: ClientDeps, tx: TxReader, name: string): Promise<Node> {
  const read = (): Promise<Node> => tx.nodes.get(name);
  return deps.contextCache === undefined ? read() : throughSlot(deps.contextCache.nodeSlot(name), tx.stamps, read);
}
