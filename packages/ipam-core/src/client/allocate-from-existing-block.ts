import { type AllocationBlock, ConflictError, type Versioned } from '@ipamkit/models';
import { type AllocationWant, takeFromBlock } from './allocation-plan.js';
import { persistAllocation } from './block-handle-writes.js';
import type { ClientDeps } from './client-deps.js';
import type { AssignContext, AssignRequest } from './read-assign-context.js';
import { withCasRetry } from './with-cas-retry.js';

/**
 * assignFromExistingBlock of design/calico-ipam.md#assigning-from-an-existing-block with its CAS loop: take up to `num` addresses from
 * the block (the given version first, re-read after a conflict) and persist block and handle.
 * Returns block-masked addresses and their sequence number (no addresses: the block is full).
 */
export async function allocateFromExistingBlock(
  deps: ClientDeps,
  ctx: AssignContext,
  req: AssignRequest,
  want: AllocationWant,
  first: Versioned<AllocationBlock>,
  num: number,
  affinityCheck: boolean,
): Promise<{ ipNets: string[]; sequenceNumber: bigint }> {
  return withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 ? first : await deps.ds.blocks.get(first.cidr);
      const take = takeFromBlock(stored, ctx, req, want, num, affinityCheck, deps.clock.now());
      if (take === undefined) return { ipNets: [], sequenceNumber: stored.sequenceNumber };
      await persistAllocation(deps, take, want.handle);
      return { ipNets: take.ipNets, sequenceNumber: take.sequenceNumber };
    },
    { isRetryable: (err) => err instanceof ConflictError, operation: `assign from block ${first.cidr}` },
  );
}
