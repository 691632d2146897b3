import { createUtilizationAccumulator } from '../utilization/utilization-accumulator.js';
import { firstOrdinalsPage, visitOrdinalsPages } from './block-pages.js';
import type { ClientDeps } from './client-deps.js';
import type { PoolUtilization } from './client-types.js';

/**
 * GetUtilization (design/calico-ipam.md#getutilization): pools, reservations and the first page of blocks in one
 * wave, then the blocks page by page into the fold of utilization/ (design/ipam-core.md,
 * "Utilization at scale"): at most two pages are held at a time (the one folded and the one being
 * read), never every block.
 */
export async function getUtilization(deps: ClientDeps, args: { pools?: string[] } = {}): Promise<PoolUtilization[]> {
  const [pools, reservations, first] = await Promise.all([
    deps.ds.ipPools.list(),
    deps.ds.ipReservations.list(),
    firstOrdinalsPage(deps.ds.blocks),
  ]);
  const accumulator = createUtilizationAccumulator({
    pools: [...pools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    reservations,
    ...(args.pools === undefined ? {} : { poolsFilter: args.pools }),
  });
  await visitOrdinalsPages(deps.ds.blocks, first, (block) => accumulator.add(block));
  return accumulator.result();
}
