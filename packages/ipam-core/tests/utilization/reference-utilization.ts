import type { AllocationBlock, Datastore, IPPool, IPReservation } from '@ipamkit/models';
import { blockRange } from '../../src/block/ordinals.js';
import { parseBlockInterval } from '../../src/block/ip-address.js';
import { inUseCount, numFree } from '../../src/block/block-queries.js';
import { createReservationFilter } from '../../src/reservations/reservation-filter.js';
import {
  intersectRanges,
  normalizeRanges,
  rangeOfCidr,
  rangesSize,
  type AddressRange,
  type RangeSet,
} from '../../src/utilization/cidr-ranges.js';
import { ORPHANED_BLOCKS_POOL, type PoolUtilization } from '../../src/utilization/utilization-accumulator.js';

// Test-only: GetUtilization as it was before the streaming fold (design/ipam-core.md, "Utilization
// at scale"), kept verbatim as the reference the property test compares the new implementation
// with. Only the imports changed (the result types and the orphan bucket's name come from src),
// and subtractRanges is the old quadratic one, copied here.

/** a \\ b, both normalized (the old implementation). */
function subtractRanges(a: RangeSet, b: RangeSet): RangeSet {
  const out: AddressRange[] = [];
  for (const x of a) {
    let cursor = x.start;
    for (const y of b) {
      if (y.version !== x.version || y.end <= cursor) continue;
      if (y.start >= x.end) break;
      if (y.start > cursor) out.push({ version: x.version, start: cursor, end: y.start });
      cursor = y.end;
      if (cursor >= x.end) break;
    }
    if (cursor < x.end) out.push({ version: x.version, start: cursor, end: x.end });
  }
  return out;
}

export interface ComputeUtilizationArgs {
  /** Every pool, disabled ones included, in datastore order. */
  pools: readonly IPPool[];
  blocks: readonly AllocationBlock[];
  reservations: readonly IPReservation[];
  /** Pool names or CIDR strings (exact match); empty or absent means all pools plus orphans. */
  poolsFilter?: readonly string[];
}

interface Bucket {
  result: PoolUtilization;
  range: AddressRange;
  blockRanges: AddressRange[];
}

/**
 * GetUtilization's arithmetic (design/calico-ipam.md#getutilization) over data the caller has read. Each block goes
 * to the first bucket whose CIDR overlaps it. Per pool: capacity = |pool|, reserved =
 * |pool ∩ ⋃reservations|, inUse = Σ block inUse, available = Σ block available +
 * |pool \ ⋃reservations \ ⋃blocks of this pool|. The orphan bucket lists blocks but has no totals.
 */
export function referenceComputeUtilization(args: ComputeUtilizationArgs): PoolUtilization[] {
  const filter = args.poolsFilter ?? [];
  const selected = filter.length === 0 ? args.pools : args.pools.filter((p) => filter.includes(p.name) || filter.includes(p.cidr));
  const empty = (name: string, cidr: string): PoolUtilization => ({
    name, cidr, capacity: 0n, inUse: 0n, reserved: 0n, available: 0n, blocks: [],
  });
  const buckets: Bucket[] = selected.map((pool) => ({
    result: empty(pool.name, pool.cidr),
    range: rangeOfCidr(parseBlockInterval(pool.cidr)),
    blockRanges: [],
  }));
  if (filter.length === 0) {
    buckets.push({
      result: empty(ORPHANED_BLOCKS_POOL.name, ORPHANED_BLOCKS_POOL.cidr),
      range: rangeOfCidr(parseBlockInterval(ORPHANED_BLOCKS_POOL.cidr)),
      blockRanges: [],
    });
  }
  const reservations = createReservationFilter(args.reservations);
  for (const block of args.blocks) {
    const range = rangeOfCidr(blockRange(block));
    const bucket = buckets.find((b) => intersectRanges([b.range], [range]).length > 0);
    if (bucket === undefined) continue;
    bucket.blockRanges.push(range);
    bucket.result.blocks.push({
      cidr: block.cidr,
      capacity: range.end - range.start,
      inUse: BigInt(inUseCount(block)),
      reserved: reservations.countIn(block.cidr),
      available: BigInt(numFree(block, reservations)),
    });
  }
  const realBuckets = filter.length === 0 ? buckets.slice(0, -1) : buckets;
  for (const bucket of realBuckets) {
    const pool = [bucket.range];
    const assignable = subtractRanges(pool, reservations.reserved);
    const outsideBlocks = subtractRanges(assignable, normalizeRanges(bucket.blockRanges));
    const r = bucket.result;
    r.capacity = bucket.range.end - bucket.range.start;
    r.reserved = r.capacity - rangesSize(assignable);
    r.inUse = r.blocks.reduce((sum, b) => sum + b.inUse, 0n);
    r.available = r.blocks.reduce((sum, b) => sum + b.available, 0n) + rangesSize(outsideBlocks);
  }
  return buckets.map((b) => b.result);
}

/** The old GetUtilization: everything listed in one wave, then the arithmetic above. */
export async function referenceGetUtilization(ds: Datastore, args: { pools?: string[] } = {}): Promise<PoolUtilization[]> {
  const [pools, reservations, blocks] = await Promise.all([ds.ipPools.list(), ds.ipReservations.list(), ds.blocks.list()]);
  return referenceComputeUtilization({
    pools: [...pools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    blocks: blocks.filter((b) => !b.deleted),
    reservations,
    ...(args.pools === undefined ? {} : { poolsFilter: args.pools }),
  });
}
