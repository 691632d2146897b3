import type { AllocationBlock } from '@ipamkit/models';
import { hostOwnsBlock } from '../block/block-owner.js';
import { isEmpty, numFree } from '../block/block-queries.js';
import { unixNanos } from '../block/new-block.js';
import type { AssignContext, AssignRequest } from './read-assign-context.js';
import { randomBlockGenerator } from './block-generators.js';
import { type ClientDeps, collectedBlock } from './client-deps.js';
import { NoFreeBlocksError } from './client-errors.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';

/** An empty block of another host is reclaimed only once its claim is this old (design/calico-ipam.md#constants). */
export const EMPTY_BLOCK_MIN_RECLAIM_AGE_MS = 60_000;

/**
 * A block CIDR this owner can claim (design/calico-ipam.md#finding-a-usable-block): the first, in each allowed pool's
 * host-seeded order, that has no block or is already ours with room; otherwise an empty block of
 * another owner whose claim is at least a minute old, whose affinity is released first.
 * Throws NoFreeBlocksError.
 */
export async function findUsableBlock(deps: ClientDeps, ctx: AssignContext, req: AssignRequest): Promise<string> {
  const stored = await deps.ds.blocks.list({ ipVersion: req.version });
  const now = deps.clock.now();
  const byCidr = new Map(stored.filter((b) => !b.deleted).map((b) => [b.cidr, b]));
  const candidates: AllocationBlock[] = [];
  for (const pool of ctx.allowed) {
    for (const cidr of randomBlockGenerator(pool.cidr, pool.blockSize, req.owner.host, () => unixNanos(deps.clock.now()))) {
      if (ctx.reservations.matchesWholeCidr(cidr)) continue;
      const existing = byCidr.get(cidr);
      if (existing === undefined) return cidr;
      const { block } = collectedBlock(existing, ctx.config, now);
      const free = numFree(block, ctx.reservations);
      if (free > 0 && hostOwnsBlock(existing, req.owner)) return cidr;
      if (free > 0 && isEmpty(block)) candidates.push(existing);
    }
  }
  for (const candidate of candidates) {
    const owner = candidate.affinity;
    if (owner === undefined) continue;
    const claimedAt = candidate.affinityClaimTime === undefined ? Number.NaN : Date.parse(candidate.affinityClaimTime);
    // A missing or unreadable claim time is Go's zero time: infinitely old.
    if (!Number.isNaN(claimedAt) && now.getTime() - claimedAt < EMPTY_BLOCK_MIN_RECLAIM_AGE_MS) continue;
    try {
      await releaseBlockAffinityOf(deps, ctx.config, owner, candidate.cidr, {
        requireEmpty: true,
        requiredSequenceNumber: candidate.sequenceNumber,
      });
      return candidate.cidr;
    } catch {
      // Someone else reclaimed, refilled or released it first: try the next one.
    }
  }
  throw new NoFreeBlocksError();
}
