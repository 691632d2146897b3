import { hostname as osHostname } from 'node:os';
import { type IPVersion, ipVersionOfCidr, UseRequiredError, ValidationError } from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { autoAssignFamily, type FamilyOutcome } from './auto-assign-family.js';
import type { ClientDeps } from './client-deps.js';
import type { AutoAssignArgs, IPAMAssignments, ReadAheadArgs } from './client-types.js';
import { withAutoAssignPartial } from './partial-results.js';
import { startReadAhead } from './read-assign-context.js';

export { blockCap } from './allocation-plan.js';

/** Calico's decideHostname: an empty host means this machine. */
export function decideHostname(host: string): string {
  return host !== '' ? host : osHostname().trim().toLowerCase();
}

/** The client's `readAhead`: each requested family's first wave, as `assignVersion` would ask for it. */
export function readAhead(deps: ClientDeps, args: ReadAheadArgs): void {
  const host = decideHostname(args.hostname);
  const owner = { type: args.intendedUse === 'LoadBalancer' ? 'virtual' : 'host', host } as const;
  for (const [version, num] of [[4, args.num4], [6, args.num6]] as const) {
    if ((num ?? 0) > 0) startReadAhead(deps, { version, owner, use: args.intendedUse, requestedPools: [], namespace: undefined, hostReserved: undefined });
  }
}

function checkCount(name: string, value: number | undefined): number {
  const n = value ?? 0;
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError(`${name} must be a non-negative integer, got ${n}`);
  return n;
}

/** Refuses a requested pool list of the family `version` that names a pool of the other family. */
export function checkPoolFamilies(version: IPVersion, pools: readonly string[]): void {
  if (pools.some((pool) => ipVersionOfCidr(pool) !== version)) {
    throw new ValidationError(`provided IPv${version} IPPools list contains one or more IPv${version === 4 ? 6 : 4} IPPools`);
  }
}

/** The family's outcome for the given request; a bad pool list fails before anything is read. */
async function assignVersion(deps: ClientDeps, args: AutoAssignArgs, host: string, version: IPVersion, num: number, firstFamily: boolean): Promise<FamilyOutcome> {
  const pools = (version === 4 ? args.ipv4Pools : args.ipv6Pools) ?? [];
  const hostReserved: HostReservedAttr | undefined = version === 4 ? args.hostReservedAttrIPv4s : args.hostReservedAttrIPv6s;
  try {
    checkPoolFamilies(version, pools);
  } catch (err) {
    return { ok: false, error: err, assignments: undefined };
  }
  return autoAssignFamily(deps, {
    version,
    num,
    hostReserved,
    maxBlocksPerHost: args.maxBlocksPerHost ?? 0,
    handleIsNew: firstFamily,
    req: {
      version,
      owner: { type: args.intendedUse === 'LoadBalancer' ? 'virtual' : 'host', host },
      use: args.intendedUse,
      requestedPools: pools,
      namespace: args.namespace,
      hostReserved,
      handleId: args.handleId,
    },
    want: {
      num,
      attrs: args.attrs,
      handle: args.handleId === undefined ? undefined : { handleId: args.handleId, maxAlloc: args.maxAllocToHandlePerIPVersion ?? 0 },
    },
  });
}

/**
 * AutoAssign (design/calico-ipam.md#autoassign): IPv4 first, then IPv6. A short result is not an error (check
 * `ips.length` and `msgs`); each address comes with the sequence number a guarded release needs.
 * On error, what was assigned so far is available via partialAutoAssignResult.
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
    const v4 = await assignVersion(deps, args, host, 4, num4, true);
    if (!v4.ok) throw withAutoAssignPartial(v4.error, { ipv4: v4.assignments });
    out.ipv4 = v4.assignments;
  }
  if (num6 > 0) {
    const v6 = await assignVersion(deps, args, host, 6, num6, num4 === 0);
    if (!v6.ok) throw withAutoAssignPartial(v6.error, { ...out, ipv6: v6.assignments });
    out.ipv6 = v6.assignments;
  }
  return out;
}
