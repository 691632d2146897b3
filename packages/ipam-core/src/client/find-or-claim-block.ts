import { type AllocationBlock, BlockLimitError, ConflictError, ValidationError, type Versioned } from '@ipamkit/models';
import { numFree } from '../block/block-queries.js';
import { getBlockFromAffinity, getPendingAffinity } from './affinity-claims.js';
import { type ClientDeps, collectedBlock } from './client-deps.js';
import { BlockClaimConflictError, BlockFilledError, StaleAffinityError } from './client-errors.js';
import { findUsableBlock } from './find-usable-block.js';
import type { AssignContext, AssignRequest } from './read-assign-context.js';
import { withCasRetry } from './with-cas-retry.js';

/** A claim lost to another writer: find a block again. */
const isClaimRace = (err: unknown): boolean =>
  err instanceof ConflictError || err instanceof BlockClaimConflictError || err instanceof StaleAffinityError || err instanceof BlockFilledError;

/**
 * findOrClaimBlock of design/calico-ipam.md#finding-or-claiming-a-block: the next of the owner's `affine` block CIDRs with
 * `minFree` room (validated through the claim protocol; the iterator is consumed up to it), else,
 * when `allowNewClaim`, a newly claimed block. Throws BlockLimitError, NoFreeBlocksError,
 * ValidationError ("failed to find or claim a block").
 */
export async function findOrClaimBlock(
  deps: ClientDeps,
  ctx: AssignContext,
  req: AssignRequest,
  affine: Iterator<string>,
  allowNewClaim: boolean,
  minFree: number,
): Promise<{ readonly block: Versioned<AllocationBlock>; readonly newlyClaimed: boolean }> {
  const freeIn = (block: AllocationBlock): number => numFree(collectedBlock(block, ctx.config, deps.clock.now()).block, ctx.reservations);
  for (let next = affine.next(); next.done !== true; next = affine.next()) {
    const cidr = next.value;
    if (ctx.reservations.matchesWholeCidr(cidr)) continue;
    const key = { host: req.owner.host, type: req.owner.type, cidr };
    try {
      const block = await withCasRetry(
        async () => getBlockFromAffinity(deps, await deps.ds.affinities.get(key), req.hostReserved),
        { isRetryable: (err) => err instanceof ConflictError, operation: `validate affinity ${cidr}` },
      );
      if (freeIn(block) >= minFree) return { block, newlyClaimed: false };
    } catch {
      // Gone, stale or someone else's: Calico moves on to the next affine block.
    }
  }
  if (!allowNewClaim) throw new BlockLimitError('cannot allocate new block due to per host block limit');
  if (!ctx.config.autoAllocateBlocks) throw new ValidationError('failed to find or claim a block');
  return withCasRetry(
    async () => {
      const subnet = await findUsableBlock(deps, ctx, req);
      const block = await getBlockFromAffinity(deps, await getPendingAffinity(deps, req.owner, subnet), req.hostReserved);
      const free = freeIn(block);
      if (free < minFree) throw new BlockFilledError(subnet, free, minFree);
      return { block, newlyClaimed: true };
    },
    { isRetryable: isClaimRace, operation: 'find and claim a new block' },
  );
}
