import type { IPVersion } from '../resources/intended-use.js';

/** Address width in bits for each IP family. */
export function bitsOf(version: IPVersion): 32 | 128 {
  return version === 4 ? 32 : 128;
}

/** The all-ones value of a family's address width. */
export function maxAddressOf(version: IPVersion): bigint {
  return (1n << BigInt(bitsOf(version))) - 1n;
}

/** The network mask for a prefix length, as a bigint of the family's width. */
export function maskOf(version: IPVersion, prefixLength: number): bigint {
  const bits = BigInt(bitsOf(version));
  const hostBits = bits - BigInt(prefixLength);
  return maxAddressOf(version) ^ ((1n << hostBits) - 1n);
}
