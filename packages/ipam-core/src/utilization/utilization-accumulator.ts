import type { BlockOrdinals, IPPool, IPReservation } from '@ipamkit/models';
import { blockRange } from '../block/ordinals.js';
import { parseBlockInterval } from '../block/ip-address.js';
import { inUseCount } from '../block/block-queries.js';
import { parseReservedCidrs } from '../reservations/parse-reserved-cidrs.js';
import {
  normalizeRanges,
  overlapSize,
  overlappingOffsets,
  rangeOfCidr,
  rangesContain,
  rangesSize,
  subtractRanges,
  type AddressRange,
  type RangeSet,
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

export interface UtilizationAccumulatorArgs {
  /** Every pool, disabled ones included, in the order buckets are tried (GetUtilization: by name). */
  pools: readonly IPPool[];
  reservations: readonly IPReservation[];
  /** Pool names or CIDR strings (exact match); empty or absent means all pools plus orphans. */
  poolsFilter?: readonly string[];
}

/** Folds blocks one at a time into per-pool totals; nothing but the per-block rows is kept. */
export interface UtilizationAccumulator {
  add(block: BlockOrdinals): void;
  /** The totals; call once, after the last `add`. */
  result(): PoolUtilization[];
}

interface Bucket {
  readonly result: PoolUtilization;
  readonly range: AddressRange;
  /** The block ranges of this bucket, as added (merged in `result`). */
  readonly blockRanges: AddressRange[];
}

function emptyBucket(name: string, cidr: string): Bucket {
  const result = { name, cidr, capacity: 0n, inUse: 0n, reserved: 0n, available: 0n, blocks: [] };
  return { result, range: rangeOfCidr(parseBlockInterval(cidr)), blockRanges: [] };
}

/** Free ordinals not covered by a reservation (numFree's rule, with the overlap already counted). */
function availableIn(block: BlockOrdinals, range: AddressRange, reservedInBlock: bigint, reserved: RangeSet): bigint {
  const size = range.end - range.start;
  // A short allocations array is a corrupt block: nothing in it is free to hand out
  // (`hasShortAllocations`, with the block's range already parsed).
  if (BigInt(block.allocations.length) < size) return 0n;
  if (reservedInBlock === 0n) return smallCount(block.unallocated.length);
  if (reservedInBlock === size) return 0n;
  // Partly reserved: the reserved parts of the block as ordinal intervals (usually one), so each
  // free ordinal is a few number comparisons instead of a bigint and a binary search.
  const inside = overlappingOffsets(reserved, range.version, range.start, range.end);
  const n = Number(size);
  let free = 0;
  for (const ordinal of block.unallocated) {
    if (ordinal >= 0 && ordinal < n) {
      if (!inside.some((r) => ordinal >= r.from && ordinal < r.to)) free += 1;
    } else if (!rangesContain(reserved, range.version, range.start + BigInt(ordinal))) {
      // An ordinal outside the block (a row written behind the datastore's back) keeps the old test.
      free += 1;
    }
  }
  return smallCount(free);
}

/** Calico's largest block (a /20 or /116): the counts `smallCount` shares. */
const SHARED_COUNTS = 4096;
/**
 * Filled on first use, not when the module loads: every process that imports the core (a CNI call
 * among them) would otherwise make 4,097 bigints it never uses.
 */
const SMALL_COUNTS: (bigint | undefined)[] = new Array<bigint | undefined>(SHARED_COUNTS + 1);

/**
 * `BigInt(n)`, but one shared value per count up to Calico's largest block: every block row holds
 * four counts, and 100,000 rows of fresh bigints are garbage-collection work for nothing
 * (design/ipam-core.md, "Utilization at scale"). Bigints are immutable, so sharing is safe.
 */
function smallCount(n: number): bigint {
  if (!(Number.isInteger(n) && n >= 0 && n <= SHARED_COUNTS)) return BigInt(n);
  return (SMALL_COUNTS[n] ??= BigInt(n));
}

const SHARED_COUNTS_BIGINT = BigInt(SHARED_COUNTS);
const smallBigint = (b: bigint): bigint => (b >= 0n && b <= SHARED_COUNTS_BIGINT ? smallCount(Number(b)) : b);

/**
 * GetUtilization's arithmetic (design/calico-ipam.md#getutilization) as a fold, so blocks can be streamed page by
 * page (design/ipam-core.md, "Utilization at scale"). Each block goes to the first bucket whose
 * CIDR overlaps it. Per pool: capacity = |pool|, reserved = |pool ∩ ⋃reservations|, inUse = Σ block
 * inUse, available = Σ block available + |pool \ ⋃reservations \ ⋃blocks of this pool|. The
 * orphan bucket lists blocks but has no totals. Per block: O(pools + log reservations); the
 * reservations are merged once (O(r log r)) and each pool's block ranges sorted once.
 */
export function createUtilizationAccumulator(args: UtilizationAccumulatorArgs): UtilizationAccumulator {
  const filter = args.poolsFilter ?? [];
  const selected = filter.length === 0 ? args.pools : args.pools.filter((p) => filter.includes(p.name) || filter.includes(p.cidr));
  const buckets = selected.map((pool) => emptyBucket(pool.name, pool.cidr));
  if (filter.length === 0) buckets.push(emptyBucket(ORPHANED_BLOCKS_POOL.name, ORPHANED_BLOCKS_POOL.cidr));
  const reserved = normalizeRanges(parseReservedCidrs(args.reservations).cidrs.map(rangeOfCidr));
  const realBuckets = filter.length === 0 ? buckets.slice(0, -1) : buckets;
  let done = false;

  return {
    add(block) {
      const range = rangeOfCidr(blockRange(block));
      const bucket = buckets.find((b) => b.range.version === range.version && b.range.start < range.end && range.start < b.range.end);
      if (bucket === undefined) return;
      bucket.blockRanges.push(range);
      const reservedInBlock = overlapSize(reserved, range.version, range.start, range.end);
      bucket.result.blocks.push({
        cidr: block.cidr,
        capacity: smallBigint(range.end - range.start),
        inUse: smallCount(inUseCount(block)),
        reserved: smallBigint(reservedInBlock),
        available: availableIn(block, range, reservedInBlock, reserved),
      });
    },
    result() {
      if (done) throw new Error('UtilizationAccumulator.result() called twice');
      done = true;
      for (const bucket of realBuckets) {
        const assignable = subtractRanges([bucket.range], reserved);
        const outsideBlocks = subtractRanges(assignable, normalizeRanges(bucket.blockRanges));
        const r = bucket.result;
        r.capacity = bucket.range.end - bucket.range.start;
        r.reserved = r.capacity - rangesSize(assignable);
        let inUse = 0n;
        let available = 0n;
        for (const b of r.blocks) {
          inUse += b.inUse;
          available += b.available;
        }
        r.inUse = inUse;
        r.available = available + rangesSize(outsideBlocks);
      }
      return buckets.map((b) => b.result);
    },
  };
}
