import { hostname as osHostname } from 'node:os';
import {
  BlockNotEmptyError,
  ConflictError,
  type IPVersion,
  ipVersionOfCidr,
  NotFoundError,
  UseRequiredError,
  ValidationError,
  DEFAULT_MAX_BLOCKS_PER_HOST,
} from '@ipamkit/models';
import { HandleMaxAllocReachedError } from '../block/handle-counts.js';
import { type HostReservedAttr } from '../block/host-reserved-attr.js';
import { type AffineWant, runAffineFastPath } from './affine-fast-path.js';
import { type AffineLoopState, continueAffineLoop } from './affine-slow-path.js';
import type { AssignContext, AssignRequest } from './assign-context.js';
import { borrowAddresses } from './borrow-addresses.js';
import { type ClientDeps, hintKey } from './client-deps.js';
import { BlockClaimConflictError, InsufficientIPsByHandleError } from './client-errors.js';
import type { AutoAssignArgs, IPAMAssignments } from './client-types.js';
import { existingHandleAddresses } from './handle-queries.js';
import { familyPartialOf, withAutoAssignPartial, withFamilyPartial } from './partial-results.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';
import { withCasRetry } from './with-cas-retry.js';

/** Calico's decideHostname: an empty host means this machine. */
export function decideHostname(host: string): string {
  return host !== '' ? host : osHostname().trim().toLowerCase();
}

/** spec/core.md §8 step 7: the smaller of the non-zero caps, default 20. */
export function blockCap(configMax: number, requestMax: number): number {
  let cap: number;
  if (configMax > 0 && requestMax > 0 && requestMax > configMax) cap = configMax;
  else if (requestMax === 0) cap = configMax;
  else cap = requestMax;
  return cap === 0 ? DEFAULT_MAX_BLOCKS_PER_HOST : cap;
}

const MAX_HINTED_BLOCKS = 8;

interface FamilyArgs {
  readonly version: IPVersion;
  readonly num: number;
  readonly pools: readonly string[];
  readonly hostReserved: HostReservedAttr | undefined;
}

/** Releases affinities to pools that stopped selecting the node, when their blocks are empty (§8 step 5.6). */
async function releaseUnselectedAffinities(deps: ClientDeps, ctx: AssignContext, req: AssignRequest): Promise<void> {
  for (const cidr of ctx.releaseCandidates) {
    try {
      await withCasRetry(() => releaseBlockAffinityOf(deps, ctx.config, req.owner, cidr, { requireEmpty: true }), {
        isRetryable: (err) => err instanceof ConflictError,
      });
    } catch (err) {
      if (!(err instanceof BlockClaimConflictError || err instanceof BlockNotEmptyError || err instanceof NotFoundError)) throw err;
    }
  }
}

async function assignFamilyOnce(deps: ClientDeps, args: AutoAssignArgs, host: string, fam: FamilyArgs): Promise<IPAMAssignments> {
  const req: AssignRequest = {
    version: fam.version,
    owner: { type: args.intendedUse === 'LoadBalancer' ? 'virtual' : 'host', host },
    use: args.intendedUse,
    requestedPools: fam.pools,
    namespace: args.namespace,
    hostReserved: fam.hostReserved,
    handleId: args.handleId,
  };
  const want: AffineWant = {
    num: fam.num,
    attrs: args.attrs,
    handle: args.handleId === undefined ? undefined : { handleId: args.handleId, maxAlloc: args.maxAllocToHandlePerIPVersion ?? 0 },
  };
  const result = (ips: string[], msgs: Iterable<string>): IPAMAssignments => ({
    ips,
    ipVersion: fam.version,
    numRequested: fam.num,
    msgs: [...new Set(msgs)],
    ...(fam.hostReserved === undefined ? {} : { hostReservedAttr: fam.hostReserved }),
  });
  const reuseExisting = async (): Promise<IPAMAssignments> =>
    result(await existingHandleAddresses(deps, args.handleId ?? '', fam.num, fam.version), []);

  let state: AffineLoopState | undefined;
  try {
    const fast = await runAffineFastPath(deps, req, want);
    const { ctx } = fast;
    state = {
      remaining: ctx.kept.slice(fast.nextKept).map((a) => a.cidr),
      owned: ctx.kept.length,
      cap: blockCap(ctx.config.maxBlocksPerHost, args.maxBlocksPerHost ?? 0),
      allowNewClaim: true,
      ips: [...fast.ips],
      msgs: new Set<string>(),
      used: ctx.kept.slice(0, Math.max(fast.nextKept, 1)).map((a) => a.cidr),
    };
    if (ctx.releaseCandidates.length > 0) await releaseUnselectedAffinities(deps, ctx, req);
    if (state.ips.length < fam.num) await continueAffineLoop(deps, ctx, req, want, state);
    if (state.ips.length < fam.num && !ctx.config.strictAffinity) await borrowAddresses(deps, ctx, req, want, state);
    deps.affineHints.set(hintKey(req.owner.type, host, fam.version), [...new Set(state.used)].slice(0, MAX_HINTED_BLOCKS));
    return result(state.ips, state.msgs);
  } catch (err) {
    if (err instanceof HandleMaxAllocReachedError && args.handleId !== undefined) return reuseExisting();
    throw withFamilyPartial(err, state === undefined ? undefined : result(state.ips, state.msgs));
  }
}

/** One family of AutoAssign (spec/core.md §8), retried while a capped handle's concurrent assign settles. */
async function assignFamily(deps: ClientDeps, args: AutoAssignArgs, host: string, fam: FamilyArgs): Promise<IPAMAssignments> {
  for (const pool of fam.pools) {
    if (ipVersionOfCidr(pool) !== fam.version) {
      throw new ValidationError(
        fam.version === 4
          ? 'provided IPv4 IPPools list contains one or more IPv6 IPPools'
          : 'provided IPv6 IPPools list contains one or more IPv4 IPPools',
      );
    }
  }
  return withCasRetry(() => assignFamilyOnce(deps, args, host, fam), {
    isRetryable: (err) => err instanceof InsufficientIPsByHandleError,
    operation: `AutoAssign IPv${fam.version}`,
  });
}

function checkCount(name: string, value: number | undefined): number {
  const n = value ?? 0;
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError(`${name} must be a non-negative integer, got ${n}`);
  return n;
}

/**
 * AutoAssign (spec/core.md §8): IPv4 first, then IPv6. A short result is not an error (check
 * `ips.length` and `msgs`); on error, what was assigned so far is available via partialAutoAssignResult.
 */
export async function autoAssign(deps: ClientDeps, args: AutoAssignArgs): Promise<{ ipv4?: IPAMAssignments; ipv6?: IPAMAssignments }> {
  const num4 = checkCount('num4', args.num4);
  const num6 = checkCount('num6', args.num6);
  checkCount('maxBlocksPerHost', args.maxBlocksPerHost);
  checkCount('maxAllocToHandlePerIPVersion', args.maxAllocToHandlePerIPVersion);
  if ((num4 > 0 || num6 > 0) && (args.intendedUse as string | undefined ?? '') === '') {
    throw new UseRequiredError('must specify the intended use when assigning an IP');
  }
  const host = decideHostname(args.hostname);
  const out: { ipv4?: IPAMAssignments; ipv6?: IPAMAssignments } = {};
  if (num4 > 0) {
    try {
      out.ipv4 = await assignFamily(deps, args, host, { version: 4, num: num4, pools: args.ipv4Pools ?? [], hostReserved: args.hostReservedAttrIPv4s });
    } catch (err) {
      throw withAutoAssignPartial(err, { ipv4: familyPartialOf(err) });
    }
  }
  if (num6 > 0) {
    try {
      out.ipv6 = await assignFamily(deps, args, host, { version: 6, num: num6, pools: args.ipv6Pools ?? [], hostReserved: args.hostReservedAttrIPv6s });
    } catch (err) {
      throw withAutoAssignPartial(err, { ...out, ipv6: familyPartialOf(err) });
    }
  }
  return out;
}
