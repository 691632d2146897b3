import { addressState, sequenceNumberFor } from '@ipamkit/ipam-core';
import { cidrContains, type AllocationBlock } from '@ipamkit/models';

/** The current state of one address, read from a block listing. */
export type AddressLookup =
  | { readonly state: 'no-block' }
  | { readonly state: 'free' | 'cooldown'; readonly block: string; readonly sequenceNumber: bigint }
  | { readonly state: 'allocated'; readonly block: string; readonly sequenceNumber: bigint; readonly handle?: string };

export function lookupAddress(blocks: readonly AllocationBlock[], ip: string): AddressLookup {
  const block = blocks.find((b) => !b.deleted && cidrContains(b.cidr, ip));
  if (block === undefined) return { state: 'no-block' };
  const sequenceNumber = sequenceNumberFor(block, ip) ?? 0n;
  const state = addressState(block, ip);
  if (state.state !== 'allocated') return { state: state.state, block: block.cidr, sequenceNumber };
  return { state: 'allocated', block: block.cidr, sequenceNumber, ...(state.handleId === undefined ? {} : { handle: state.handleId }) };
}
