import {
  type AllocationBlock,
  BlockLimitError,
  ConflictError,
  ValidationError,
  type Versioned,
} from '@ipamkit/models';
import { numFree } from '../block/block-queries.js';
import { HandleMaxAllocReachedError } from '../block/handle-counts.js';
import type { AffineWant } from './affine-fast-path.js';
import { getBlockFromAffinity, getPendingAffinity } from './affinity-claims.js';
import type { AssignContext, AssignRequest } from './assign-context.js';
import { assignFromBlock } from './assign-from-block.js';
import { type ClientDeps, collectedBlock } from './client-deps.js';
import { BlockClaimConflictError, BlockFilledError, NoFreeBlocksError, StaleAffinityError } from './client-errors.js';
import { findUsableBlock } from './find-usable-block.js';
import { withCasRetry } from './with-cas-retry.js';

/** Calico's affine-loop state (spec/core.md §8 step 8). */
export interface AffineLoopState {
  /** Affine block CIDRs not yet visited, in order. */
  readonly remaining: string[];
  owned: number;
  readonly cap: number;
  allowNewClaim: boolean;
  readonly ips: string[];
  readonly msgs: Set<string>;
  /** Blocks assigned from, for the next call's read hints. */
  readonly used: string[];
}

const isConflict = (err: unknown): boolean => err instanceof ConflictError;
const isClaimRace = (err: unknown): boolean =>
  err instanceof ConflictError || err instanceof BlockClaimConflictError || err instanceof StaleAffinityError || err instanceof BlockFilledError;

/**
 * findOrClaimBlock of spec/core.md §8.1: the next remaining affine block with `minFree` room
 * (validated through the claim protocol), else a newly claimed block. Throws BlockLimitError,
 * NoFreeBlocksError, ValidationError ("failed to find or claim a block").
 */
export async function findOrClaimBlock(
  deps: ClientDeps,
  ctx: AssignContext,
  req: AssignRequest,
  state: Pick<AffineLoopState, 'remaining' | 'allowNewClaim'>,
  minFree: number,
): Promise<{ block: Versioned<AllocationBlock>; newlyClaimed: boolean }> {
  const now = (): Date => deps.clock.now();
  for (let cidr = state.remaining.shift(); cidr !== undefined; cidr = state.remaining.shift()) {
    if (ctx.reservations.matchesWholeCidr(cidr)) continue;
    const key = { host: req.owner.host, type: req.owner.type, cidr };
    try {
      const block = await withCasRetry(
        async () => getBlockFromAffinity(deps, await deps.ds.affinities.get(key), req.hostReserved),
        { isRetryable: isConflict, operation: `validate affinity ${cidr}` },
      );
      if (numFree(collectedBlock(block, ctx.config, now()).block, ctx.reservations) >= minFree) return { block, newlyClaimed: false };
    } catch {
      // Gone, stale or someone else's: Calico moves on to the next affine block.
    }
  }
  if (!state.allowNewClaim) throw new BlockLimitError('cannot allocate new block due to per host block limit');
  if (!ctx.config.autoAllocateBlocks) throw new ValidationError('failed to find or claim a block');
  return withCasRetry(
    async () => {
      const subnet = await findUsableBlock(deps, ctx, req);
      const block = await withCasRetry(
        async () => getBlockFromAffinity(deps, await getPendingAffinity(deps, req.owner, subnet), req.hostReserved),
        { isRetryable: isConflict, operation: `claim block ${subnet}` },
      );
      const free = numFree(collectedBlock(block, ctx.config, now()).block, ctx.reservations);
      if (free < minFree) throw new BlockFilledError(subnet, free, minFree);
      return { block, newlyClaimed: true };
    },
    { isRetryable: isClaimRace, operation: 'find and claim a new block' },
  );
}

/**
 * The rest of the affine loop (spec/core.md §8 step 9) after the fast path: validate or re-create
 * the remaining affine blocks, then claim new ones up to the cap. A BlockLimitError is thrown
 * (no borrowing, §19 #3) with the limit message already recorded in `state.msgs`.
 */
export async function continueAffineLoop(deps: ClientDeps, ctx: AssignContext, req: AssignRequest, want: AffineWant, state: AffineLoopState): Promise<void> {
  while (state.ips.length < want.num) {
    if (state.owned >= state.cap) state.allowNewClaim = false;
    let found: { block: Versioned<AllocationBlock>; newlyClaimed: boolean };
    try {
      found = await findOrClaimBlock(deps, ctx, req, state, 1);
    } catch (err) {
      if (err instanceof NoFreeBlocksError) {
        if (ctx.config.strictAffinity) state.msgs.add('No more free affine blocks and strict affinity enabled');
        return;
      }
      if (err instanceof BlockLimitError) {
        state.msgs.add(`Need to allocate an IPAM block but could not - limit of ${state.cap} blocks reached for this node`);
      }
      throw err;
    }
    if (found.newlyClaimed) state.owned += 1;
    try {
      const ips = await assignFromBlock(deps, ctx, req, want, found.block, want.num - state.ips.length, ctx.config.strictAffinity);
      state.ips.push(...ips);
      if (ips.length > 0) state.used.push(found.block.cidr);
    } catch (err) {
      if (err instanceof HandleMaxAllocReachedError) throw err;
      state.msgs.add('Failed to assign IPs in newly allocated block');
    }
  }
}
