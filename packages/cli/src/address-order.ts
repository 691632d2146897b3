import { canonicalAddress, parseAddress, parseCidr, type ParsedCidr } from '@ipamkit/models';
import { InvalidIPArgumentError } from './errors.js';

// Output order does not depend on the backend's list order (SQLite and etcd list differently):
// IPv4 before IPv6, then by numeric address. The numbers shown are never re-derived.

function compareKeys(a: { version: number; value: bigint }, b: { version: number; value: bigint }): number {
  if (a.version !== b.version) return a.version - b.version;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

export function compareAddresses(a: string, b: string): number {
  return compareKeys(parseAddress(a), parseAddress(b));
}

function compareParsedCidrs(pa: ParsedCidr, pb: ParsedCidr): number {
  return compareKeys({ version: pa.version, value: pa.network }, { version: pb.version, value: pb.network }) || pa.prefixLength - pb.prefixLength;
}

export function compareCidrs(a: string, b: string): number {
  return compareParsedCidrs(parseCidr(a), parseCidr(b));
}

/**
 * `items` in `compareCidrs` order of `cidrOf(item)` (the same stable sort), each CIDR parsed once
 * instead of twice per comparison: `ipam show --show-blocks` sorts 100,000 blocks
 * (design/cli.md, "Read paths: the third round (2026-12-01)").
 */
export function sortedByCidr<T>(items: readonly T[], cidrOf: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, parsed: parseCidr(cidrOf(item)) }))
    .sort((a, b) => compareParsedCidrs(a.parsed, b.parsed))
    .map((entry) => entry.item);
}

/** The canonical form of a user-given `--ip`; throws InvalidIPArgumentError. */
export function parseIPArgument(value: string): string {
  try {
    return canonicalAddress(value.trim());
  } catch {
    throw new InvalidIPArgumentError(value);
  }
}
