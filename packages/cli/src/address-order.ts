import { canonicalAddress, parseAddress, parseCidr } from '@ipamkit/models';
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

export function compareCidrs(a: string, b: string): number {
  const pa = parseCidr(a);
  const pb = parseCidr(b);
  return compareKeys({ version: pa.version, value: pa.network }, { version: pb.version, value: pb.network }) || pa.prefixLength - pb.prefixLength;
}

/** The canonical form of a user-given `--ip`; throws InvalidIPArgumentError. */
export function parseIPArgument(value: string): string {
  try {
    return canonicalAddress(value.trim());
  } catch {
    throw new InvalidIPArgumentError(value);
  }
}
