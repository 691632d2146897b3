import { ValidationError } from '../errors.js';
import { parseAddress } from './address.js';
import { cidrSize, formatCidr, parseCidr, type ParsedCidr } from './cidr.js';
import { formatAddress } from './format-address.js';
import { bitsOf, maskOf } from './ip-version-bits.js';

function asCidr(cidr: string | ParsedCidr): ParsedCidr {
  return typeof cidr === 'string' ? parseCidr(cidr) : cidr;
}

/** Offset of `ip` from the start of `cidr` as a bigint (any CIDR size); throws when outside. */
export function bigOrdinalOf(cidr: string | ParsedCidr, ip: string): bigint {
  const c = asCidr(cidr);
  const a = parseAddress(ip);
  const offset = a.value - c.network;
  if (a.version !== c.version || offset < 0n || offset >= cidrSize(c)) {
    throw new ValidationError(`IP ${ip} not in block ${formatCidr(c)}`);
  }
  return offset;
}

/**
 * Offset of `ip` within a block (design/calico-ipam.md#ordinals); throws when outside. Blocks hold at most 2^12
 * addresses (/20, /116), so the ordinal is a plain number; a huge CIDR needs `bigOrdinalOf`.
 */
export function ordinalOf(cidr: string | ParsedCidr, ip: string): number {
  const offset = bigOrdinalOf(cidr, ip);
  if (offset > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ValidationError(`ordinal of ${ip} is too large for a number; use bigOrdinalOf`);
  }
  return Number(offset);
}

/** The address at `ordinal` within `cidr`; throws when the ordinal is out of range. */
export function addressAt(cidr: string | ParsedCidr, ordinal: number | bigint): string {
  const c = asCidr(cidr);
  const o = BigInt(ordinal);
  if (o < 0n || o >= cidrSize(c)) {
    throw new ValidationError(`ordinal ${o} is outside ${formatCidr(c)}`);
  }
  return formatAddress(c.version, c.network + o);
}

/** The block (of `blockPrefixLength`) holding `ip`: the address masked to the block size. */
export function blockCidrFor(ip: string, blockPrefixLength: number): string {
  const a = parseAddress(ip);
  if (!Number.isInteger(blockPrefixLength) || blockPrefixLength < 0 || blockPrefixLength > bitsOf(a.version)) {
    throw new ValidationError(`invalid block prefix length ${blockPrefixLength} for IPv${a.version}`);
  }
  return formatCidr({
    version: a.version,
    network: a.value & maskOf(a.version, blockPrefixLength),
    prefixLength: blockPrefixLength,
  });
}
