import { ConflictError, type Datastore, type IPPool, type Node, type TunnelType, type Versioned } from '@ipamkit/models';
import { type IpamClient, withCasRetry } from '@ipamkit/ipam-core';
import { ensureTunnelAddress, type EnsureOutcome } from './ensure-tunnel-address.js';
import { TunnelStepError } from './errors.js';
import { releaseTunnelAddress } from './ipam-calls.js';
import { silentLogger, type Logger } from '@ipamkit/models';
import { copyTunnelAddresses, sameTunnelAddresses, withTunnelAddress } from './node-tunnel-fields.js';
import { qualifyingPoolCidrs } from './qualifying-pools.js';
import { removeTunnelAddress, type RemoveOutcome } from './remove-tunnel-address.js';
import type { TunnelContext } from './tunnel-context.js';
import { RECONCILE_ORDER, TUNNEL_KINDS, tunnelHandleOf } from './tunnel-kinds.js';
import { wireguardEnabled, type WireguardOptions } from './wireguard-enablement.js';

export interface ReconcileOptions {
  readonly datastore: Datastore;
  readonly ipam: IpamClient;
  readonly nodeName: string;
  readonly wireguard?: WireguardOptions;
  readonly logger?: Logger;
}

export type TunnelDecision =
  | { readonly type: TunnelType; readonly enabled: true; readonly pools: readonly string[]; readonly outcome: EnsureOutcome; readonly address: string }
  | { readonly type: TunnelType; readonly enabled: false; readonly outcome: RemoveOutcome };

export interface ReconcileResult {
  /** One entry per tunnel type, in processing order. */
  readonly decisions: readonly TunnelDecision[];
  /** True when the Node was written (only when a tunnel address changed). */
  readonly nodeUpdated: boolean;
  readonly node: Versioned<Node>;
}

async function fetchNode(ds: Datastore, nodeName: string): Promise<Versioned<Node>> {
  try {
    return await ds.nodes.get(nodeName);
  } catch (err) {
    throw new TunnelStepError('fetch-node', `failed to fetch node resource '${nodeName}'`, err);
  }
}

async function listPools(ds: Datastore): Promise<IPPool[]> {
  try {
    return await ds.ipPools.list();
  } catch (err) {
    throw new TunnelStepError('list-pools', 'unable to query IP pool configuration', err);
  }
}

/**
 * Writes the reconciled tunnel fields. A conflicting write re-reads the Node and re-applies only
 * the tunnel fields: other writers (kubelet, Felix's public key) must not fail the reconcile, and
 * this allocator is the only writer of these fields.
 */
async function writeNode(ds: Datastore, read: Versioned<Node>, desired: Node): Promise<Versioned<Node>> {
  try {
    return await withCasRetry(
      async (attempt) => {
        const base = attempt === 0 ? read : await ds.nodes.get(read.name);
        return ds.nodes.update(copyTunnelAddresses(base, desired));
      },
      { attempts: 10, isRetryable: (err) => err instanceof ConflictError, operation: `update node ${read.name}` },
    );
  } catch (err) {
    throw new TunnelStepError('update-node', `failed to update node '${read.name}'`, err);
  }
}

/**
 * One reconcile of every tunnel type for one node (design/calico-callers.md#reconcile): re-reads the Node and
 * all pools, ensures or removes each type in Calico's order, writes the Node once if anything
 * changed. On failure the addresses assigned by this run are released again (by address and
 * handle, so an older allocation on the same handle is not swept along) and the error rethrown.
 */
export async function reconcileTunnelAddresses(options: ReconcileOptions): Promise<ReconcileResult> {
  const { datastore, ipam, nodeName } = options;
  const logger = options.logger ?? silentLogger;
  const original = await fetchNode(datastore, nodeName);
  const ctx: TunnelContext = { datastore, ipam, nodeName, pools: await listPools(datastore), logger };
  let node: Versioned<Node> = original;
  const decisions: TunnelDecision[] = [];
  const assigned: { type: TunnelType; address: string }[] = [];
  try {
    for (const type of RECONCILE_ORDER) {
      const kind = TUNNEL_KINDS[type];
      const pools = qualifyingPoolCidrs({
        node: original,
        pools: ctx.pools,
        kind,
        wireguardEnabled: wireguardEnabled(original, kind.version, options.wireguard),
        onSkip: (pool, reason) => logger.info('pool does not qualify', { type: kind.attributeType, pool: pool.name, reason }),
      });
      if (pools.length > 0) {
        const result = await ensureTunnelAddress(ctx, node, kind, pools);
        if (result.newlyAssigned) assigned.push({ type, address: result.address });
        node = withTunnelAddress(node, kind, result.address);
        decisions.push({ type, enabled: true, pools, outcome: result.outcome, address: result.address });
      } else {
        const result = await removeTunnelAddress(ctx, node, kind);
        node = result.node;
        decisions.push({ type, enabled: false, outcome: result.outcome });
      }
    }
    if (sameTunnelAddresses(node, original)) return { decisions, nodeUpdated: false, node: original };
    const written = await writeNode(datastore, original, node);
    return { decisions, nodeUpdated: true, node: written };
  } catch (err) {
    for (const { type, address } of assigned) {
      const handleId = tunnelHandleOf(TUNNEL_KINDS[type], nodeName);
      await releaseTunnelAddress(ctx, { address, handleId }).catch((rollbackErr: unknown) => {
        logger.warn('failed to roll back a tunnel address', { address, error: String(rollbackErr) });
      });
    }
    throw err;
  }
}
