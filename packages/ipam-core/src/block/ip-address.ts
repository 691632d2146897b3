import {
  ValidationError,
  bitsOf,
  blockCidrFor,
  canonicalCidr as canonicalCidrText,
  formatAddress as formatModelAddress,
  parseAddress as parseModelAddress,
  parseAddressOrCidr,
  parseCidr as parseModelCidr,
} from '@ipamkit/models';

// The block logic's view of addresses: a CIDR as the half-open interval [base, base + size).
// Parsing and canonical formatting are the models' (one implementation, property-tested there);
// this module only adapts them to interval form and to the core's error type.

export type AddressFamily = 4 | 6;

/** An address as a number, tagged with its family. */
export interface ParsedAddress {
  version: AddressFamily;
  value: bigint;
}

/** A masked CIDR as the half-open interval [base, base + size). */
export interface ParsedCidr {
  version: AddressFamily;
  base: bigint;
  prefixLength: number;
  size: bigint;
}

export class InvalidAddressError extends ValidationError {
  override name = 'InvalidAddressError';
  constructor(readonly input: string, what: 'address' | 'CIDR' = 'address') {
    super(`invalid IP ${what}: ${JSON.stringify(input)}`);
  }
}

export function familyBits(version: AddressFamily): number {
  return bitsOf(version);
}

/** Parses a bare IPv4 or IPv6 address (surrounding space ignored); throws InvalidAddressError. */
export function parseAddress(text: string): ParsedAddress {
  try {
    return parseModelAddress(text.trim());
  } catch {
    throw new InvalidAddressError(text);
  }
}

/** Canonical text: dotted quad, or RFC 5952. */
export function formatAddress(version: AddressFamily, value: bigint): string {
  return formatModelAddress(version, value);
}

/**
 * Parses `a/len` (masked, as Go's ParseCIDR does) or, when `allowBareAddress`, a bare address as a
 * single-address CIDR. Throws InvalidAddressError.
 */
export function parseCidr(text: string, allowBareAddress = false): ParsedCidr {
  const trimmed = text.trim();
  if (!allowBareAddress && !trimmed.includes('/')) throw new InvalidAddressError(text, 'CIDR');
  try {
    const { version, network, prefixLength } = allowBareAddress ? parseAddressOrCidr(trimmed) : parseModelCidr(trimmed);
    return { version, base: network, prefixLength, size: 1n << BigInt(bitsOf(version) - prefixLength) };
  } catch {
    throw new InvalidAddressError(text, 'CIDR');
  }
}

export function formatCidr(cidr: ParsedCidr): string {
  return `${formatAddress(cidr.version, cidr.base)}/${cidr.prefixLength}`;
}

/** The canonical masked form of a CIDR string (e.g. `fd00:0::5/122` → `fd00::/122`). */
export function canonicalCidr(text: string): string {
  try {
    return canonicalCidrText(text.trim());
  } catch {
    throw new InvalidAddressError(text, 'CIDR');
  }
}

/** The block CIDR of `blockPrefixLength` that contains `ip` (design/calico-ipam.md#ordinals). */
export function blockCidrForAddress(ip: string, blockPrefixLength: number): string {
  try {
    return blockCidrFor(ip.trim(), blockPrefixLength);
  } catch {
    throw new InvalidAddressError(`${ip}/${blockPrefixLength}`, 'CIDR');
  }
}
