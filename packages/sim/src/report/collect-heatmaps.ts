import { addressToBigInt, cidrContains, cidrSize, type Datastore } from '@ipamkit/models';

const start = (cidr: string): bigint => addressToBigInt(cidr.split('/')[0] ?? '');

/** One block of a heatmap: how full it is and who owns it. */
export interface HeatmapCell {
  readonly cidr: string;
  readonly used: number;
  readonly size: number;
  /** `host:<node>`, `virtual:load-balancer`, or '' for an unaffine block. */
  readonly owner: string;
}

export interface PoolHeatmap {
  readonly pool: string;
  readonly cidr: string;
  /** Every block the pool could hold. */
  readonly possibleBlocks: bigint;
  readonly cells: HeatmapCell[];
}

/** Per pool, its claimed blocks in address order with their use and owner. */
export async function collectHeatmaps(ds: Datastore): Promise<PoolHeatmap[]> {
  const [pools, blocks] = await Promise.all([ds.ipPools.list(), ds.blocks.list()]);
  return pools.map((pool) => {
    const blockSize = pool.blockSize ?? (pool.cidr.includes(':') ? 122 : 26);
    const prefix = Number(pool.cidr.split('/')[1] ?? blockSize);
    const cells = blocks
      .filter((b) => !b.deleted && cidrContains(pool.cidr, b.cidr))
      .map((b) => ({
        cidr: b.cidr,
        used: b.allocations.filter((a) => a !== null).length,
        size: Number(cidrSize(b.cidr)),
        owner: b.affinity === undefined ? '' : `${b.affinity.type}:${b.affinity.host}`,
      }))
      .sort((a, b) => (start(a.cidr) < start(b.cidr) ? -1 : start(a.cidr) > start(b.cidr) ? 1 : 0));
    return { pool: pool.name, cidr: pool.cidr, possibleBlocks: 2n ** BigInt(Math.max(0, blockSize - prefix)), cells };
  });
}
