import {
  type AllocationBlock,
  AlreadyExistsError,
  type BlockAffinity,
  ConflictError,
  type BlockOwner,
  NotFoundError,
  type Versioned,
} from '@ipamkit/models';
import { hostOwnsBlock } from '../block/block-owner.js';
import { type HostReservedAttr } from '../block/host-reserved-attr.js';
import { newBlock } from '../block/new-block.js';
import { BlockClaimConflictError, StaleAffinityError } from './client-errors.js';
import { asUpdate, type ClientDeps, ignoreNotFound, orUndefined, unversioned } from './client-deps.js';

// The two-phase claim protocol of design/calico-ipam.md#affinity-claim-protocol An affinity is only a hint until the block's
// own `affinity` field agrees with it: pending and pendingDeletion affinities are always
// re-validated against the block, which is the ownership record.

function affinityKey(owner: BlockOwner, cidr: string): { host: string; type: BlockOwner['type']; cidr: string } {
  return { host: owner.host, type: owner.type, cidr };
}

function ownerOf(affinity: BlockAffinity): BlockOwner {
  return { type: affinity.type, host: affinity.host };
}

/** Deletes an affinity; a concurrent delete is fine, other failures are only worth a log in Calico. */
export async function deleteAffinityQuietly(deps: ClientDeps, affinity: Versioned<BlockAffinity>): Promise<void> {
  await deps.ds.affinities.delete(affinity).catch(() => undefined);
}

/**
 * The affinity as `pending` at the version just read or written. A `pending` one is already in
 * the state Calico would write, so it is used as is: rewriting pending over pending changes nothing
 * but the revision, and racers on one host that each did so invalidated one another's next write
 * (design/ipam-core.md, "Racing claims from one host").
 */
async function asPending(deps: ClientDeps, affinity: Versioned<BlockAffinity>): Promise<Versioned<BlockAffinity>> {
  if (affinity.state === 'pending') return affinity;
  return deps.ds.affinities.update({ ...affinity, state: 'pending' });
}

/**
 * Create a pending affinity, or take over an existing unconfirmed one (design/calico-ipam.md#affinity-claim-protocol getPendingAffinity).
 * Finding this owner's own pending affinity (another process on the host is mid-claim) is this
 * claim too: the block's `affinity` field decides ownership, and both claimers proceed to it.
 */
export async function getPendingAffinity(deps: ClientDeps, owner: BlockOwner, cidr: string): Promise<Versioned<BlockAffinity>> {
  try {
    return await deps.ds.affinities.create({ ...affinityKey(owner, cidr), state: 'pending', deleted: false });
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
  const existing = await deps.ds.affinities.get(affinityKey(owner, cidr));
  if (existing.state === 'confirmed') return existing;
  return asPending(deps, existing);
}

/** Mark confirmed; if that write loses but someone else confirmed it, that is success (design/calico-ipam.md#affinity-claim-protocol confirmAffinity). */
export async function confirmAffinity(deps: ClientDeps, affinity: Versioned<BlockAffinity>): Promise<Versioned<BlockAffinity>> {
  try {
    return await deps.ds.affinities.update({ ...affinity, state: 'confirmed' });
  } catch (err) {
    const current = await orUndefined(deps.ds.affinities.get(affinityKey(ownerOf(affinity), affinity.cidr)));
    if (current?.state === 'confirmed') return current;
    throw err;
  }
}

/**
 * Create the block for a pending affinity and confirm it (design/calico-ipam.md#affinity-claim-protocol claimAffineBlock). If the block
 * already exists and is ours (another process on this host won) confirm and use it; if another
 * owner has it, drop our pending affinity and throw BlockClaimConflictError.
 */
export async function claimAffineBlock(
  deps: ClientDeps,
  affinity: Versioned<BlockAffinity>,
  hostReserved: HostReservedAttr | undefined,
): Promise<Versioned<AllocationBlock>> {
  const owner = ownerOf(affinity);
  const now = deps.clock.now();
  const fresh = newBlock({ cidr: affinity.cidr, owner, now, ...(hostReserved === undefined ? {} : { hostReserved }) });
  try {
    const created = await deps.ds.blocks.create(fresh);
    await confirmAffinity(deps, affinity);
    return created;
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
  const existing = await deps.ds.blocks.get(affinity.cidr).catch((err: unknown) => {
    // Its owner released and deleted it between our create and this read: the CIDR is free
    // again, so claim it again (Calico returns the not-found error here; design/ipam-core.md,
    // "Racing claims from one host").
    if (err instanceof NotFoundError) throw new ConflictError(`block ${affinity.cidr}`, `block ${affinity.cidr} was deleted while being claimed`, { cause: err });
    throw err;
  });
  if (hostOwnsBlock(existing, owner)) {
    await confirmAffinity(deps, affinity);
    return existing;
  }
  await deleteAffinityQuietly(deps, affinity);
  throw new BlockClaimConflictError(affinity.cidr, existing.affinity === undefined ? undefined : `${existing.affinity.type}:${existing.affinity.host}`);
}

/**
 * The block an affinity points at, validated (design/calico-ipam.md#affinity-claim-protocol getBlockFromAffinity): re-create a missing
 * block, delete an affinity its block disagrees with (StaleAffinityError), and confirm a pending
 * affinity after bumping the block so any concurrent actor's view of it is invalidated.
 */
export async function getBlockFromAffinity(
  deps: ClientDeps,
  affinity: Versioned<BlockAffinity>,
  hostReserved: HostReservedAttr | undefined,
): Promise<Versioned<AllocationBlock>> {
  const owner = ownerOf(affinity);
  const block = await orUndefined(deps.ds.blocks.get(affinity.cidr));
  if (block === undefined) return claimAffineBlock(deps, await asPending(deps, affinity), hostReserved);
  if (!hostOwnsBlock(block, owner)) {
    await deps.ds.affinities.delete(affinity).catch(ignoreNotFound);
    throw new StaleAffinityError(affinity.cidr, affinity.host);
  }
  if (affinity.state === 'confirmed' || affinity.state === '') return block;
  const pending = await asPending(deps, affinity);
  const bumped = await deps.ds.blocks.update(asUpdate(block, unversioned(block)));
  await deps.ds.affinities.update({ ...pending, state: 'confirmed' });
  return bumped;
}
