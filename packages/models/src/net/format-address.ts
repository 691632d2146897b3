import type { IPVersion } from '../resources/intended-use.js';

/** Dotted-quad text of a 32-bit value. */
export function formatIPv4(value: bigint): string {
  const octets: number[] = [];
  for (let shift = 24n; shift >= 0n; shift -= 8n) {
    octets.push(Number((value >> shift) & 0xffn));
  }
  return octets.join('.');
}

/**
 * RFC 5952 text of a 128-bit value (design/calico-stored-formats.md#encoding-rules): lower-case hex without leading zeros,
 * the longest run of two or more zero groups collapsed to `::` (the first run on a tie), a lone
 * zero group written as `0`. Always hex groups: names and keys never use the dotted tail.
 */
export function formatIPv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) {
    groups.push(Number((value >> shift) & 0xffffn));
  }
  let bestStart = -1;
  let bestLength = 0;
  let runStart = -1;
  for (let i = 0; i <= groups.length; i++) {
    if (i < groups.length && groups[i] === 0) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0) {
      const length = i - runStart;
      if (length >= 2 && length > bestLength) {
        bestStart = runStart;
        bestLength = length;
      }
      runStart = -1;
    }
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  const head = hex.slice(0, bestStart).join(':');
  const tail = hex.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

/** Canonical text of an address value in the given family. */
export function formatAddress(version: IPVersion, value: bigint): string {
  return version === 4 ? formatIPv4(value) : formatIPv6(value);
}
