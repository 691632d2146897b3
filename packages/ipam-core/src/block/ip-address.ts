import {
  type IPVersion,
  type ParsedAddress,
  ValidationError,
  bitsOf,
  formatAddress,
  parseAddress,
  parseAddressOrCidr,
  parseCidr,
} from '@ipamkit/models';

// The block logic's view of addresses: a CIDR as the half-open interval [base, base + size).
// Parsing and canonical formatting are the models' (one implementation, property-tested there);
// this module only adapts them to interval form and to the core's error type. These helpers are
// internal (design/ipam-core.md, "Public surface"): callers use the models' `parseCidr` and friends.

/** A masked CIDR as the half-open interval [base, base + size). */
export interface BlockInterval {
  version: IPVersion;
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

/** Parses a bare IPv4 or IPv6 address (surrounding space ignored); throws InvalidAddressError. */
export function parseInputAddress(text: string): ParsedAddress {
  try {
    return parseAddress(text.trim());
  } catch {
    throw new InvalidAddressError(text);
  }
}

/**
 * Parses `a/len` (masked, as Go's ParseCIDR does) or, when `allowBareAddress`, a bare address as a
 * single-address CIDR. Throws InvalidAddressError.
 */
export function parseBlockInterval(text: string, allowBareAddress = false): BlockInterval {
  const trimmed = text.trim();
  if (!allowBareAddress && !trimmed.includes('/')) throw new InvalidAddressError(text, 'CIDR');
  try {
    const { version, network, prefixLength } = allowBareAddress ? parseAddressOrCidr(trimmed) : parseCidr(trimmed);
    return { version, base: network, prefixLength, size: 1n << BigInt(bitsOf(version) - prefixLength) };
  } catch {
    throw new InvalidAddressError(text, 'CIDR');
  }
}

export function formatBlockInterval(cidr: BlockInterval): string {
  return `${formatAddress(cidr.version, cidr.base)}/${cidr.prefixLength}`;
}
