import { type AllocationBlock, ConflictError, type Versioned } from '@ipamkit/models';
import { autoAssignInBlock } from '../block/auto-assign-in-block.js';
import type { AffineWant } from './affine-fast-path.js';
import type { AssignContext, AssignRequest } from './assign-context.js';
import { persistAllocation } from './block-handle-writes.js';
import { type ClientDeps, collectedBlock } from './client-deps.js';
import { withCasRetry } from './with-cas-retry.js';

/**
 * assignFromExistingBlock of spec/core.md §8.3 with its CAS loop: take up to `num` addresses from
 * the block (the given version first, re-read after a conflict) and persist block and handle.
 * Returns block-masked addresses (possibly none: the block is full).
 */
export async function assignFromBlock(
  deps: ClientDeps,
  ctx: AssignContext,
  req: AssignRequest,
  want: AffineWant,
  first: Versioned<AllocationBlock>,
  num: number,
  affinityCheck: boolean,
): Promise<string[]> {
  return withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 ? first : await deps.ds.blocks.get(first.cidr);
      const { block } = collectedBlock(stored, ctx.config, deps.clock.now());
      const result = autoAssignInBlock(block, {
        num,
        reservations: ctx.reservations,
        ...(req.handleId === undefined ? {} : { handleId: req.handleId }),
        ...(want.attrs === undefined ? {} : { attrs: want.attrs }),
        ...(affinityCheck ? { requiredOwner: req.owner } : {}),
      });
      if (result.ips.length === 0) return [];
      await persistAllocation(deps, { original: stored, next: result.block, count: result.ips.length }, want.handle);
      return result.ipNets;
    },
    { isRetryable: (err) => err instanceof ConflictError, operation: `assign from block ${first.cidr}` },
  );
}
