import type { IPVersion } from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { readAssignContext } from './read-assign-context.js';
import { checkPoolFamilies, decideHostname } from './auto-assign.js';
import type { ClientDeps } from './client-deps.js';
import type { BlockArgs } from './client-types.js';
import { findOrClaimBlock } from './find-or-claim-block.js';
import { withCasRetry } from './with-cas-retry.js';

async function ensureFamily(deps: ClientDeps, host: string, version: IPVersion, pools: readonly string[], hostReserved: HostReservedAttr): Promise<string> {
  checkPoolFamilies(version, pools);
  const req = {
    version,
    owner: { type: 'host', host } as const,
    use: 'Workload',
    requestedPools: pools,
    namespace: undefined,
    hostReserved,
    handleId: undefined,
  } as const;
  const ctx = await withCasRetry(() => readAssignContext(deps, deps.ds, req), { operation: 'read EnsureBlock context' });
  const { block } = await findOrClaimBlock(deps, ctx, req, ctx.kept.map((a) => a.cidr)[Symbol.iterator](), true, 0);
  return block.cidr;
}

/**
 * EnsureBlock (design/calico-ipam.md#ensureblock): an affine block per family whose host-reserved attribute is
 * given (a family without one is skipped), claiming one if needed with no block limit. Throws
 * NoFreeBlocksError when none can be had.
 */
export async function ensureBlock(deps: ClientDeps, args: BlockArgs): Promise<{ ipv4?: string; ipv6?: string }> {
  const host = decideHostname(args.hostname);
  const out: { ipv4?: string; ipv6?: string } = {};
  if (args.hostReservedAttrIPv4s !== undefined) {
    out.ipv4 = await ensureFamily(deps, host, 4, args.ipv4Pools ?? [], args.hostReservedAttrIPv4s);
  }
  if (args.hostReservedAttrIPv6s !== undefined) {
    out.ipv6 = await ensureFamily(deps, host, 6, args.ipv6Pools ?? [], args.hostReservedAttrIPv6s);
  }
  return out;
}
