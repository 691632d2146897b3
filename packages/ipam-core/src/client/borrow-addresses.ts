import { HandleMaxAllocReachedError } from '../block/handle-counts.js';
import { unixNanos } from '../block/new-block.js';
import type { AffineWant } from './affine-fast-path.js';
import type { AffineLoopState } from './affine-slow-path.js';
import type { AssignContext, AssignRequest } from './assign-context.js';
import { assignFromBlock } from './assign-from-block.js';
import { blockSearchStart, inSearchOrder } from './block-generators.js';
import type { ClientDeps } from './client-deps.js';

/**
 * Borrowing (spec/core.md §8 step 10): with strict affinity off, take addresses from any existing
 * block of the allowed pools, pool by pool, in the host-seeded order. Never creates blocks. One
 * listing replaces Calico's Get per candidate CIDR; the order is the generator's.
 */
export async function borrowAddresses(deps: ClientDeps, ctx: AssignContext, req: AssignRequest, want: AffineWant, state: AffineLoopState): Promise<void> {
  const stored = await deps.ds.blocks.list({ ipVersion: req.version });
  const byCidr = new Map(stored.filter((b) => !b.deleted).map((b) => [b.cidr, b]));
  const exhausted: string[] = [];
  for (const pool of ctx.allowed) {
    if (state.ips.length >= want.num) break;
    const start = blockSearchStart(pool.cidr, pool.blockSize, req.owner.host, () => unixNanos(deps.clock.now()));
    const order = inSearchOrder(pool.cidr, pool.blockSize, start, [...byCidr.keys()]);
    for (const cidr of order) {
      if (state.ips.length >= want.num) break;
      const block = byCidr.get(cidr);
      if (block === undefined || ctx.reservations.matchesWholeCidr(cidr)) continue;
      try {
        const ips = await assignFromBlock(deps, ctx, req, want, block, want.num - state.ips.length, false);
        state.ips.push(...ips);
      } catch (err) {
        if (err instanceof HandleMaxAllocReachedError) throw err;
        // Calico moves on to the next candidate block on any other error.
      }
    }
    if (state.ips.length < want.num) exhausted.push(pool.cidr);
  }
  if (exhausted.length > 0) state.msgs.add(`No IPs available in pools: [${exhausted.join(' ')}]`);
}
