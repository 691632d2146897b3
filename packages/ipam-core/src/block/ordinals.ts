import { type AllocationBlock, formatAddress } from '@ipamkit/models';
import { AddressNotInBlockError, InvalidBlockArgumentError } from './block-errors.js';
import { parseInputAddress, parseBlockInterval, type BlockInterval } from './ip-address.js';

/** Largest block we hold as an array of ordinals; Calico's pools allow at most 4096 (/20, /116). */
export const MAX_BLOCK_ADDRESSES = 65_536;

/** The block's CIDR as a number range; throws InvalidAddressError for a malformed `cidr`. */
export function blockRange(block: Pick<AllocationBlock, 'cidr'>): BlockInterval {
  return parseBlockInterval(block.cidr);
}

/** Number of addresses N in the block (design/calico-ipam.md#ordinals). */
export function blockSize(block: Pick<AllocationBlock, 'cidr'>): number {
  const { size } = blockRange(block);
  if (size > BigInt(MAX_BLOCK_ADDRESSES)) {
    throw new InvalidBlockArgumentError(`block ${block.cidr} has more than ${MAX_BLOCK_ADDRESSES} addresses`);
  }
  return Number(size);
}

/** Offset of `ip` from the block base; throws AddressNotInBlockError outside [0, N). */
export function ordinalOf(block: Pick<AllocationBlock, 'cidr'>, ip: string): number {
  const range = blockRange(block);
  const address = parseInputAddress(ip);
  const offset = address.value - range.base;
  if (address.version !== range.version || offset < 0n || offset >= range.size) {
    throw new AddressNotInBlockError(ip, block.cidr);
  }
  return Number(offset);
}

/** The canonical address at `ordinal`; throws AddressNotInBlockError outside [0, N). */
export function addressOf(block: Pick<AllocationBlock, 'cidr'>, ordinal: number): string {
  const range = blockRange(block);
  if (!Number.isInteger(ordinal) || ordinal < 0 || BigInt(ordinal) >= range.size) {
    throw new AddressNotInBlockError(`ordinal ${ordinal}`, block.cidr);
  }
  return formatAddress(range.version, range.base + BigInt(ordinal));
}
