import { type BlockOwner, BlockNotEmptyError, type IPAMConfig, ValidationError } from '@ipamkit/models';
import { affinityString, hostOwnsBlock } from '../block/block-owner.js';
import { isEmpty } from '../block/block-queries.js';
import { clearAffinity } from '../block/block-writes.js';
import { BlockChangedError, BlockClaimConflictError } from './client-errors.js';
import { asUpdate, type ClientDeps, collectedBlock, ignoreNotFound } from './client-deps.js';

export interface ReleaseBlockAffinityOptions {
  readonly requireEmpty: boolean;
  /** Reclaim: fail with BlockChangedError if the block moved on since the caller looked at it. */
  readonly requiredSequenceNumber?: bigint;
}

/**
 * Give up `owner`'s claim on the block at `cidr` (design/calico-ipam.md#releasing-a-block-affinity): pendingDeletion first, then
 * delete the empty block or make the non-empty one unaffine, then delete the affinity. Throws
 * NotFoundError (no affinity or block), BlockClaimConflictError (someone else's block; our stale
 * affinity is removed), BlockNotEmptyError, BlockChangedError.
 */
export async function releaseBlockAffinityOf(
  deps: ClientDeps,
  config: IPAMConfig,
  owner: BlockOwner,
  cidr: string,
  options: ReleaseBlockAffinityOptions,
): Promise<void> {
  if (owner.host === '') throw new ValidationError('Hostname must be specified to release block affinity');
  const affinity = await deps.ds.affinities.get({ host: owner.host, type: owner.type, cidr });
  const stored = await deps.ds.blocks.get(cidr);
  const { block } = collectedBlock(stored, config, deps.clock.now());
  if (options.requiredSequenceNumber !== undefined && stored.sequenceNumber !== options.requiredSequenceNumber) {
    throw new BlockChangedError(cidr);
  }
  if (block.affinity !== undefined && !hostOwnsBlock(block, owner)) {
    await deps.ds.affinities.delete(affinity).catch(() => undefined);
    throw new BlockClaimConflictError(cidr, affinityString(block.affinity));
  }
  const empty = isEmpty(block);
  if (options.requireEmpty && !empty) throw new BlockNotEmptyError(cidr);
  const deleting = await deps.ds.affinities.update({ ...affinity, state: 'pendingDeletion' });
  if (empty) await deps.ds.blocks.delete(stored).catch(ignoreNotFound);
  else await deps.ds.blocks.update(asUpdate(stored, clearAffinity(block)));
  await deps.ds.affinities.delete(deleting).catch(ignoreNotFound);
}
