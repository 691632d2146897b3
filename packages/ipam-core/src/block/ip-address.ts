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
  readonly version: IPVersion;
  readonly base: bigint;
  readonly prefixLength: number;
  readonly size: bigint;
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
 * The last CIDRs parsed, frozen: every block operation and address of a block parses the block's
 * CIDR, several times per allocation (design/ipam-core.md, "Allocation cost: the ninth round
 * (2026-12-02)"). Text that does not parse throws and is not kept; cleared when full.
 */
const parsedBlockIntervals = new Map<string, BlockInterval>();
const PARSED_BLOCK_INTERVALS = 1024;

/**
 * Parses `a/len` (masked, as Go's ParseCIDR does) or, when `allowBareAddress`, a bare address as a
 * single-address CIDR. Throws InvalidAddressError.
 */
export function parseBlockInterval(text: string, allowBareAddress = false): BlockInterval {
  if (allowBareAddress) return parseInterval(text, true);
  let interval = parsedBlockIntervals.get(text);
  if (interval === undefined) {
    interval = Object.freeze(parseInterval(text, false));
    if (parsedBlockIntervals.size >= PARSED_BLOCK_INTERVALS) parsedBlockIntervals.clear();
    parsedBlockIntervals.set(text, interval);
  }
  return interval;
}

function parseInterval(text: string, allowBareAddress: boolean): BlockInterval {
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
