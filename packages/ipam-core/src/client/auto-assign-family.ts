import { BlockLimitError, BlockNotEmptyError, ConflictError, type IPVersion, NotFoundError } from '@ipamkit/models';
import { hostOwnsBlock } from '../block/block-owner.js';
import { HandleMaxAllocReachedError } from '../block/handle-counts.js';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { unixNanos } from '../block/new-block.js';
import { allocateFromExistingBlock } from './allocate-from-existing-block.js';
import {
  type AllocationWant,
  blockCap,
  type BlockTake,
  FamilyProgress,
  familyAssignments,
  MAX_HINTED_BLOCKS,
  takeFromBlock,
} from './allocation-plan.js';
import { blockSearchStart, inSearchOrder } from './block-generators.js';
import { bufferAllocations, persistAllocation } from './block-handle-writes.js';
import { type ClientDeps, hintKey, orUndefined, type Reader } from './client-deps.js';
import { BlockClaimConflictError, InsufficientIPsByHandleError, NoFreeBlocksError } from './client-errors.js';
import type { IPAMAssignments } from './client-types.js';
import { findOrClaimBlock } from './find-or-claim-block.js';
import { existingHandleAddresses } from './handle-queries.js';
import { type AssignContext, type AssignRequest, readAssignContext } from './read-assign-context.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';
import { inTransaction } from './transaction.js';
import { withCasRetry } from './with-cas-retry.js';

// One family of AutoAssign, top to bottom (design/calico-ipam.md#autoassign, design/ipam-core.md "AutoAssign flow"):
//   1. fast path: take from the owner's confirmed affine blocks (one transaction where supported);
//   2. give up affinities to pools that stopped selecting the node, when empty;
//   3. slow path: validate the remaining affine blocks, then claim new ones up to the block cap;
//   4. borrow from any block of the allowed pools, unless strict affinity is on.
// Each step returns what it took; only this file's `runFamily` accumulates it.

/** One family of an AutoAssign call. */
export interface FamilyArgs {
  readonly version: IPVersion;
  readonly num: number;
  readonly hostReserved: HostReservedAttr | undefined;
  readonly req: AssignRequest;
  readonly want: AllocationWant;
  /** The caller's per-host block limit (0: the config's). */
  readonly maxBlocksPerHost: number;
  /**
   * No earlier family or attempt of this call can have written the handle: without transactions
   * its first write creates it without reading it first (design/ipam-core.md, "AutoAssign flow").
   */
  readonly handleIsNew?: boolean;
}

/**
 * A family's result: its assignments, or the error that stopped it and what it had assigned (and
 * left allocated) before that, undefined when nothing was started.
 */
export type FamilyOutcome =
  | { readonly ok: true; readonly assignments: IPAMAssignments }
  | { readonly ok: false; readonly error: unknown; readonly assignments: IPAMAssignments | undefined };

interface FastPathResult {
  readonly ctx: AssignContext;
  readonly takes: readonly BlockTake[];
  /** Index into `ctx.kept` where the slow path continues. */
  readonly stoppedAt: number;
}

/**
 * Plans takes from the owner's regular affine blocks in affinity order (the steady state of
 * design/calico-ipam.md#autoassign step 9). Stops at the first affinity that needs the claim protocol (pending,
 * block missing or owned by someone else): the slow path takes over there.
 */
async function planAffineTakes(deps: ClientDeps, reader: Reader, ctx: AssignContext, fam: FamilyArgs): Promise<{ takes: BlockTake[]; stoppedAt: number }> {
  const { req, want } = fam;
  const takes: BlockTake[] = [];
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
    const take = takeFromBlock(stored, ctx, req, want, want.num - assigned, ctx.config.strictAffinity, now);
    if (take === undefined) continue;
    takes.push(take);
    assigned += take.count;
  }
  return { takes, stoppedAt: i };
}

/**
 * Step 1. With transact, reads, block updates and the handle write are one all-or-none
 * transaction, retried as a whole on conflict. Without, the context is read in one wave and each
 * block is persisted in Calico's order; a conflict hands that block to the slow path.
 */
async function affineFastPath(deps: ClientDeps, fam: FamilyArgs): Promise<FastPathResult> {
  const handleRef = fam.want.handle;
  if (deps.ds.transact !== undefined) {
    return withCasRetry(
      () =>
        inTransaction(deps, async (tx) => {
          const ctx = await readAssignContext(deps, tx, fam.req, tx.stamps);
          const plan = await planAffineTakes(deps, tx, ctx, fam);
          if (plan.takes.length > 0) bufferAllocations(tx, plan.takes, handleRef === undefined ? undefined : { ref: handleRef, stored: ctx.handle });
          return { ctx, ...plan };
        }),
      { operation: 'AutoAssign from affine blocks' },
    );
  }
  // A new handle is not read: the first write creates it, and one that exists after all (a runtime
  // repeating an ADD) fails that create with AlreadyExists, after which the write reads it.
  const req = fam.handleIsNew === true ? { ...fam.req, handleId: undefined } : fam.req;
  const ctx = await withCasRetry(() => readAssignContext(deps, deps.ds, req), { operation: 'read AutoAssign context' });
  const plan = await planAffineTakes(deps, deps.ds, ctx, fam);
  const persisted: BlockTake[] = [];
  for (const [j, take] of plan.takes.entries()) {
    try {
      await persistAllocation(deps, take, handleRef, j === 0 ? { value: ctx.handle } : undefined);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return { ctx, takes: persisted, stoppedAt: ctx.kept.findIndex((a) => a.cidr === take.original.cidr) };
    }
    persisted.push(take);
  }
  return { ctx, ...plan };
}

/** Step 2: affinities to pools that stopped selecting the node are released when their blocks are empty (design/calico-ipam.md#autoassign step 5). Whether any was. */
async function releaseUnselectedAffinities(deps: ClientDeps, ctx: AssignContext, req: AssignRequest): Promise<boolean> {
  let released = false;
  for (const cidr of ctx.releaseCandidates) {
    try {
      await withCasRetry(() => releaseBlockAffinityOf(deps, ctx.config, req.owner, cidr, { requireEmpty: true }), {
        isRetryable: (err) => err instanceof ConflictError,
      });
      released = true;
    } catch (err) {
      if (!(err instanceof BlockClaimConflictError || err instanceof BlockNotEmptyError || err instanceof NotFoundError)) throw err;
    }
  }
  return released;
}

/**
 * Step 3: the rest of the affine loop (design/calico-ipam.md#autoassign step 9): validate or re-create the
 * remaining affine blocks, then claim new ones up to the cap. A BlockLimitError is thrown (no
 * borrowing, design/calico-ipam.md#known-quirks) with the limit message already recorded in `got.msgs`. Returns the CIDRs of
 * the blocks it assigned from.
 */
async function affineSlowPath(deps: ClientDeps, ctx: AssignContext, fam: FamilyArgs, remaining: readonly string[], got: FamilyProgress): Promise<string[]> {
  const used: string[] = [];
  const affine = remaining[Symbol.iterator]();
  const cap = blockCap(ctx.config.maxBlocksPerHost, fam.maxBlocksPerHost);
  let owned = ctx.kept.length;
  while (got.ips.length < fam.num) {
    let found;
    try {
      found = await findOrClaimBlock(deps, ctx, fam.req, affine, owned < cap, 1);
    } catch (err) {
      if (err instanceof NoFreeBlocksError) {
        if (ctx.config.strictAffinity) got.msgs.add('No more free affine blocks and strict affinity enabled');
        return used;
      }
      if (err instanceof BlockLimitError) got.msgs.add(`Need to allocate an IPAM block but could not - limit of ${cap} blocks reached for this node`);
      throw err;
    }
    if (found.newlyClaimed) owned += 1;
    try {
      const taken = await allocateFromExistingBlock(deps, ctx, fam.req, fam.want, found.block, fam.num - got.ips.length, ctx.config.strictAffinity);
      got.add(taken.ipNets, taken.sequenceNumber);
      if (taken.ipNets.length > 0) used.push(found.block.cidr);
    } catch (err) {
      if (err instanceof HandleMaxAllocReachedError) throw err;
      got.msgs.add('Failed to assign IPs in newly allocated block');
    }
  }
  return used;
}

/**
 * Step 4, borrowing (design/calico-ipam.md#autoassign step 10): with strict affinity off, take addresses from any
 * existing block of the allowed pools, pool by pool, in the host-seeded order. Never creates
 * blocks. One listing replaces Calico's Get per candidate CIDR; the order is the generator's.
 */
async function borrowAddresses(deps: ClientDeps, ctx: AssignContext, fam: FamilyArgs, got: FamilyProgress): Promise<void> {
  const { req } = fam;
  const stored = await deps.ds.blocks.list({ ipVersion: req.version });
  const byCidr = new Map(stored.filter((b) => !b.deleted).map((b) => [b.cidr, b]));
  const exhausted: string[] = [];
  for (const pool of ctx.allowed) {
    if (got.ips.length >= fam.num) break;
    const start = blockSearchStart(pool.cidr, pool.blockSize, req.owner.host, () => unixNanos(deps.clock.now()));
    for (const cidr of inSearchOrder(pool.cidr, pool.blockSize, start, [...byCidr.keys()])) {
      if (got.ips.length >= fam.num) break;
      const block = byCidr.get(cidr);
      if (block === undefined || ctx.reservations.matchesWholeCidr(cidr)) continue;
      try {
        const taken = await allocateFromExistingBlock(deps, ctx, req, fam.want, block, fam.num - got.ips.length, false);
        got.add(taken.ipNets, taken.sequenceNumber);
      } catch (err) {
        if (err instanceof HandleMaxAllocReachedError) throw err;
        // Calico moves on to the next candidate block on any other error.
      }
    }
    if (got.ips.length < fam.num) exhausted.push(pool.cidr);
  }
  if (exhausted.length > 0) got.msgs.add(`No IPs available in pools: [${exhausted.join(' ')}]`);
}

/** One attempt at the family: steps 1–4, then the read hints for the next call. */
async function runFamily(deps: ClientDeps, fam: FamilyArgs): Promise<FamilyOutcome> {
  const { req } = fam;
  const got = new FamilyProgress();
  let started = false;
  try {
    const fast = await affineFastPath(deps, fam);
    started = true;
    const { ctx } = fast;
    got.addTakes(fast.takes);
    const used = ctx.kept.slice(0, Math.max(fast.stoppedAt, 1)).map((a) => a.cidr);
    // The steps below may claim, confirm or release this owner's affinities.
    const forgetAffinities = (): void =>
      deps.contextCache?.forgetAffinities({ kind: 'affinities', host: req.owner.host, type: req.owner.type, ipVersion: fam.version });
    if (ctx.releaseCandidates.length > 0 && (await releaseUnselectedAffinities(deps, ctx, req))) forgetAffinities();
    if (got.ips.length < fam.num) forgetAffinities();
    if (got.ips.length < fam.num) used.push(...(await affineSlowPath(deps, ctx, fam, ctx.kept.slice(fast.stoppedAt).map((a) => a.cidr), got)));
    if (got.ips.length < fam.num && !ctx.config.strictAffinity) await borrowAddresses(deps, ctx, fam, got);
    deps.affineHints.set(hintKey(req.owner.type, req.owner.host, fam.version), [...new Set(used)].slice(0, MAX_HINTED_BLOCKS));
    return { ok: true, assignments: familyAssignments(fam, got) };
  } catch (err) {
    if (err instanceof HandleMaxAllocReachedError && req.handleId !== undefined) {
      // A capped handle that is full: its addresses are the answer (KubeVirt, design/calico-ipam.md#per-handle-caps).
      const held = await existingHandleAddresses(deps, req.handleId, fam.num, fam.version);
      return { ok: true, assignments: familyAssignments(fam, { ips: held.ips, sequenceNumbers: held.sequenceNumbers, msgs: new Set() }) };
    }
    return { ok: false, error: err, assignments: started ? familyAssignments(fam, got) : undefined };
  }
}

/** One family of AutoAssign, retried while a capped handle's concurrent assign settles. */
export async function autoAssignFamily(deps: ClientDeps, fam: FamilyArgs): Promise<FamilyOutcome> {
  try {
    return await withCasRetry((attempt) => runFamily(deps, attempt === 0 ? fam : { ...fam, handleIsNew: false }), {
      isRetryable: (err) => err instanceof InsufficientIPsByHandleError,
      operation: `AutoAssign IPv${fam.version}`,
    });
  } catch (err) {
    return { ok: false, error: err, assignments: undefined };
  }
}
