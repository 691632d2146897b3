import { ConflictError } from '@ipamkit/models';
import { autoAssignInBlock } from '../block/auto-assign-in-block.js';
import { hostOwnsBlock } from '../block/block-owner.js';
import { numFree } from '../block/block-queries.js';
import { type AssignContext, type AssignRequest, readAssignContext } from './assign-context.js';
import { type AllocationChange, bufferAllocations, type HandleRef, persistAllocation } from './block-handle-writes.js';
import { type ClientDeps, collectedBlock, orUndefined, type Reader } from './client-deps.js';
import { inTransaction } from './transaction.js';
import { withCasRetry } from './with-cas-retry.js';

export interface AffineWant {
  readonly num: number;
  readonly attrs: Record<string, string> | undefined;
  readonly handle: HandleRef | undefined;
}

interface PlannedChange extends AllocationChange {
  readonly keptIndex: number;
  readonly ipNets: string[];
}

export interface FastPathResult {
  readonly ctx: AssignContext;
  /** Block-masked addresses assigned and persisted. */
  readonly ips: string[];
  /** Index into `ctx.kept` where Calico's affine loop continues (the slow path). */
  readonly nextKept: number;
}

/**
 * Plans assignments from the owner's existing, regular affine blocks in affinity order (the
 * steady state of spec/core.md §8 step 9). Stops at the first affinity that needs the claim
 * protocol (pending, block missing or owned by someone else): the slow path takes over there.
 */
async function planAffine(deps: ClientDeps, reader: Reader, req: AssignRequest, ctx: AssignContext, want: AffineWant): Promise<{ changes: PlannedChange[]; nextKept: number }> {
  const changes: PlannedChange[] = [];
  let assigned = 0;
  let i = 0;
  const now = deps.clock.now();
  for (; i < ctx.kept.length && assigned < want.num; i += 1) {
    const affinity = ctx.kept[i];
    if (affinity === undefined) break;
    if (ctx.reservations.matchesWholeCidr(affinity.cidr)) continue;
    if (affinity.state !== 'confirmed' && affinity.state !== '') break;
    if (!ctx.prefetched.has(affinity.cidr)) {
      // One more wave at most: fetch every remaining affine block together.
      const missing = ctx.kept.slice(i).map((a) => a.cidr).filter((c) => !ctx.prefetched.has(c));
      const blocks = await Promise.all(missing.map((c) => orUndefined(reader.blocks.get(c))));
      missing.forEach((c, j) => ctx.prefetched.set(c, blocks[j]));
    }
    const stored = ctx.prefetched.get(affinity.cidr);
    if (stored === undefined || !hostOwnsBlock(stored, req.owner)) break;
    const { block } = collectedBlock(stored, ctx.config, now);
    if (numFree(block, ctx.reservations) < 1) continue;
    const result = autoAssignInBlock(block, {
      num: want.num - assigned,
      reservations: ctx.reservations,
      ...(req.handleId === undefined ? {} : { handleId: req.handleId }),
      ...(want.attrs === undefined ? {} : { attrs: want.attrs }),
      ...(ctx.config.strictAffinity ? { requiredOwner: req.owner } : {}),
    });
    if (result.ips.length === 0) continue;
    changes.push({ original: stored, next: result.block, count: result.ips.length, keptIndex: i, ipNets: result.ipNets });
    assigned += result.ips.length;
  }
  return { changes, nextKept: i };
}

/**
 * The steady-state AutoAssign. With transact, reads, block updates and the handle write are one
 * all-or-none transaction, retried as a whole on conflict. Without, the context is read in one
 * wave and each block is persisted in Calico's order; a conflict hands that block to the slow path.
 */
export async function runAffineFastPath(deps: ClientDeps, req: AssignRequest, want: AffineWant): Promise<FastPathResult> {
  if (deps.ds.transact !== undefined) {
    return withCasRetry(
      () =>
        inTransaction(deps, async (tx) => {
          const ctx = await readAssignContext(deps, tx, req);
          const plan = await planAffine(deps, tx, req, ctx, want);
          if (plan.changes.length > 0) {
            bufferAllocations(tx, plan.changes, want.handle === undefined ? undefined : { ref: want.handle, stored: ctx.handle });
          }
          return { ctx, ips: plan.changes.flatMap((c) => c.ipNets), nextKept: plan.nextKept };
        }),
      { operation: 'AutoAssign from affine blocks' },
    );
  }
  const ctx = await withCasRetry(() => readAssignContext(deps, deps.ds, req), { operation: 'read AutoAssign context' });
  const plan = await planAffine(deps, deps.ds, req, ctx, want);
  const ips: string[] = [];
  for (const [j, change] of plan.changes.entries()) {
    try {
      await persistAllocation(deps, change, want.handle, j === 0 ? { value: ctx.handle } : undefined);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return { ctx, ips, nextKept: change.keptIndex };
    }
    ips.push(...change.ipNets);
  }
  return { ctx, ips, nextKept: plan.nextKept };
}
