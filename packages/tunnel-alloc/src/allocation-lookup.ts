import {
  applyIPPoolDefaults,
  blockCidrFor,
  cidrContains,
  IPInCooldownError,
  NotFoundError,
  orUndefined,
} from '@ipamkit/models';
import { sequenceNumberFor } from '@ipamkit/ipam-core';
import { TunnelStepError } from './errors.js';
import type { TunnelContext } from './tunnel-context.js';

/** What IPAM holds for an address recorded on the Node (design/calico-callers.md#tunnel-address-allocator lookups). */
export type AllocationLookup =
  | { readonly state: 'unallocated' }
  | { readonly state: 'cooldown' }
  | {
      readonly state: 'allocated';
      readonly handleId?: string;
      readonly attrs: Readonly<Record<string, string>>;
      /** The allocation's sequence number, read before the attributes (see `readSequenceNumber`). */
      readonly sequenceNumber?: bigint;
    };

/**
 * The per-allocation sequence number of `address`, read from its block. Read *before* the
 * attributes: if the address is released and handed to someone else between this read and our
 * release, the release fails on the stale number instead of freeing the new owner's address
 * (review rubric 1). Undefined when no pool or block holds it.
 */
async function readSequenceNumber(ctx: TunnelContext, address: string): Promise<bigint | undefined> {
  const pool = ctx.pools
    .map(applyIPPoolDefaults)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .find((p) => {
      try {
        return cidrContains(p.cidr, address);
      } catch {
        return false;
      }
    });
  if (pool === undefined) return undefined;
  const block = await orUndefined(ctx.datastore.blocks.get(blockCidrFor(address, pool.blockSize)));
  return block === undefined ? undefined : (sequenceNumberFor(block, address) ?? 0n);
}

/** Looks `address` up; "not allocated" and "in cooldown" are answers, anything else an error. */
export async function lookupAllocation(ctx: TunnelContext, address: string): Promise<AllocationLookup> {
  const prefix = `failed to get assignment attributes for CIDR '${address}'`;
  try {
    const sequenceNumber = await readSequenceNumber(ctx, address);
    const found = await ctx.ipam.getAssignmentAttributes(address);
    return {
      state: 'allocated',
      ...(found.handleId === undefined ? {} : { handleId: found.handleId }),
      attrs: found.activeOwnerAttrs,
      ...(sequenceNumber === undefined ? {} : { sequenceNumber }),
    };
  } catch (err) {
    if (err instanceof NotFoundError) return { state: 'unallocated' };
    if (err instanceof IPInCooldownError) return { state: 'cooldown' };
    throw new TunnelStepError('lookup', prefix, err);
  }
}
