import type { AllocationBlock, IPPool, IPReservation } from '@ipamkit/models';
import { blockRange } from '../block/ordinals.js';
import { parseBlockInterval } from '../block/ip-address.js';
import { inUseCount, numFree } from '../block/block-queries.js';
import { createReservationFilter } from '../reservations/reservation-filter.js';
import {
  intersectRanges,
  normalizeRanges,
  rangeOfCidr,
  rangesSize,
  subtractRanges,
  type AddressRange,
} from './cidr-ranges.js';

/** Name and CIDR of the bucket for blocks outside every pool (IPv4 only, as in Calico). */
export const ORPHANED_BLOCKS_POOL = { name: 'orphaned allocation blocks', cidr: '0.0.0.0/0' } as const;

/** Counts are bigint: an IPv6 pool easily exceeds 2^53 addresses (Calico saturates instead). */
export interface BlockUtilization {
  cidr: string;
  capacity: bigint;
  /** N − free FIFO entries: allocated, in cooldown and host-reserved ordinals. */
  inUse: bigint;
  reserved: bigint;
  available: bigint;
}

export interface PoolUtilization {
  name: string;
  cidr: string;
  capacity: bigint;
  inUse: bigint;
  reserved: bigint;
  /** Free in existing blocks plus assignable pool space not yet carved into blocks. */
  available: bigint;
  blocks: BlockUtilization[];
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
export function computeUtilization(args: ComputeUtilizationArgs): PoolUtilization[] {
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
