import { type IPVersion } from '@ipamkit/models';
import { type BlockInterval } from '../block/ip-address.js';

// The one set-arithmetic implementation behind reservation matching, NumReservedIPsInCIDR and
// GetUtilization (design/calico-ipam.md#utilization). A set of addresses is a sorted list of disjoint, non-adjacent
// half-open intervals per family, so overlapping and nested CIDRs need no special cases.

/** Addresses [start, end) of one family. */
export interface AddressRange {
  version: IPVersion;
  start: bigint;
  end: bigint;
}

/** A normalized set: sorted by (version, start), disjoint and non-adjacent. */
export type RangeSet = readonly AddressRange[];

export function rangeOfCidr(cidr: BlockInterval): AddressRange {
  return { version: cidr.version, start: cidr.base, end: cidr.base + cidr.size };
}

function compare(a: AddressRange, b: AddressRange): number {
  if (a.version !== b.version) return a.version - b.version;
  if (a.start === b.start) return 0;
  return a.start < b.start ? -1 : 1;
}

/** Sorts and merges overlapping or touching ranges; empty ranges disappear. */
export function normalizeRanges(ranges: readonly AddressRange[]): RangeSet {
  const sorted = ranges.filter((r) => r.end > r.start).sort(compare);
  const out: AddressRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last?.version === r.version && r.start <= last.end) {
      // `last` is this function's own copy: widening it in place spares an object per merged
      // range (every block of a pool, at 100,000 blocks; design/ipam-core.md, "Read paths: the
      // third round (2026-12-01)").
      if (r.end > last.end) last.end = r.end;
    } else {
      out.push({ version: r.version, start: r.start, end: r.end });
    }
  }
  return out;
}

/** a ∩ b, both normalized. */
export function intersectRanges(a: RangeSet, b: RangeSet): RangeSet {
  const out: AddressRange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === undefined || y === undefined) break;
    if (x.version !== y.version) {
      if (x.version < y.version) i += 1;
      else j += 1;
      continue;
    }
    const start = x.start > y.start ? x.start : y.start;
    const end = x.end < y.end ? x.end : y.end;
    if (start < end) out.push({ version: x.version, start, end });
    if (x.end < y.end) i += 1;
    else j += 1;
  }
  return out;
}

/**
 * a \ b, both normalized: one pass over each (two pointers), so subtracting a large set (a pool's
 * 100,000 blocks) stays linear (design/ipam-core.md, "Utilization at scale").
 */
export function subtractRanges(a: RangeSet, b: RangeSet): RangeSet {
  const out: AddressRange[] = [];
  let j = 0;
  for (const x of a) {
    // b is sorted and disjoint: a range of b that ends before x starts cannot touch a later x either.
    while (j < b.length && isBefore(b[j], x.version, x.start)) j += 1;
    let cursor = x.start;
    for (let k = j; k < b.length; k += 1) {
      const y = b[k];
      if (y === undefined || y.version !== x.version || y.start >= x.end) break;
      if (y.start > cursor) out.push({ version: x.version, start: cursor, end: y.start });
      if (y.end > cursor) cursor = y.end;
      if (cursor >= x.end) break;
    }
    if (cursor < x.end) out.push({ version: x.version, start: cursor, end: x.end });
  }
  return out;
}

/** `r` lies wholly before address `start` of `version` in (version, start) order. */
function isBefore(r: AddressRange | undefined, version: IPVersion, start: bigint): boolean {
  return r !== undefined && (r.version < version || (r.version === version && r.end <= start));
}

/** The index of the first range of a normalized set that can overlap [start, …): a binary search. */
function firstOverlapCandidate(set: RangeSet, version: IPVersion, start: bigint): number {
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (isBefore(set[mid], version, start)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * |[start, end) ∩ set| for a normalized set: a binary search for the first range that can
 * overlap, then the overlapping ranges only. O(log n + k).
 */
export function overlapSize(set: RangeSet, version: IPVersion, start: bigint, end: bigint): bigint {
  const lo = firstOverlapCandidate(set, version, start);
  let total = 0n;
  for (let i = lo; i < set.length; i += 1) {
    const r = set[i];
    if (r === undefined || r.version !== version || r.start >= end) break;
    total += (r.end < end ? r.end : end) - (r.start > start ? r.start : start);
  }
  return total;
}

/**
 * The parts of a normalized set inside [start, end), as offsets from `start` in ascending order:
 * the same binary search as `overlapSize`, for a block-sized span whose offsets fit a number.
 */
export function overlappingOffsets(set: RangeSet, version: IPVersion, start: bigint, end: bigint): { from: number; to: number }[] {
  const lo = firstOverlapCandidate(set, version, start);
  const out: { from: number; to: number }[] = [];
  for (let i = lo; i < set.length; i += 1) {
    const r = set[i];
    if (r === undefined || r.version !== version || r.start >= end) break;
    out.push({ from: Number((r.start > start ? r.start : start) - start), to: Number((r.end < end ? r.end : end) - start) });
  }
  return out;
}

/** Number of addresses in a normalized set. */
export function rangesSize(set: RangeSet): bigint {
  return set.reduce((sum, r) => sum + (r.end - r.start), 0n);
}

/** Whether `value` is in the normalized set (binary search). */
export function rangesContain(set: RangeSet, version: IPVersion, value: bigint): boolean {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = set[mid];
    if (r === undefined) return false;
    if (r.version < version || (r.version === version && r.end <= value)) lo = mid + 1;
    else if (r.version > version || r.start > value) hi = mid - 1;
    else return true;
  }
  return false;
}
