import { computeUtilization } from '../utilization/compute-utilization.js';
import type { ClientDeps } from './client-deps.js';
import type { PoolUtilization } from './client-types.js';

/** GetUtilization (design/calico-ipam.md#getutilization): pools, reservations and blocks in one wave, arithmetic in utilization/. */
export async function getUtilization(deps: ClientDeps, args: { pools?: string[] } = {}): Promise<PoolUtilization[]> {
  const [pools, reservations, blocks] = await Promise.all([
    deps.ds.ipPools.list(),
    deps.ds.ipReservations.list(),
    deps.ds.blocks.list(),
  ]);
  return computeUtilization({
    pools: [...pools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    blocks: blocks.filter((b) => !b.deleted),
    reservations,
    ...(args.pools === undefined ? {} : { poolsFilter: args.pools }),
  });
}
