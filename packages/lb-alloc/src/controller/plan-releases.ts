import { cidrContains, ipVersionOfAddress, type IPPool, type IPVersion } from '@ipamkit/models';
import type { ServiceRequests } from '../service/parse-service-annotations.js';

export interface PlanReleasesArgs {
  readonly requests: ServiceRequests;
  /** The Service's tracked addresses. */
  readonly tracked: readonly string[];
  /** The cached LoadBalancer pools (design/calico-callers.md#pool-cache). */
  readonly lbPools: readonly IPPool[];
}

function versionOf(ip: string): IPVersion | undefined {
  try {
    return ipVersionOfAddress(ip);
  } catch {
    return undefined;
  }
}

/**
 * The tracked addresses a managed Service must give up before assignment (design/calico-callers.md#per-service-sync), with the
 * per-family pool rule of design/lb-alloc.md "Fixed defects": an address is checked against the
 * pool annotation of its own family only; a family without a (non-empty) annotation falls back to
 * the no-annotation rule (release only what sits in a Manual pool). Requested addresses (the
 * annotation or `spec.loadBalancerIP`) are authoritative: anything else is released, which is what
 * moves a Service when the request changes. An address that does not parse is released.
 */
export function planReleases(args: PlanReleasesArgs): string[] {
  const { requests, tracked, lbPools } = args;
  const requested = requests.addresses;
  if (requested !== undefined) return tracked.filter((ip) => !requested.includes(ip));
  return tracked.filter((ip) => {
    const version = versionOf(ip);
    if (version === undefined) return true;
    const annotated = version === 4 ? requests.ipv4Pools : requests.ipv6Pools;
    if (annotated !== undefined) return !annotated.some((cidr) => cidrContains(cidr, ip));
    const pool = lbPools.find((p) => cidrContains(p.cidr, ip));
    return pool?.assignmentMode === 'Manual';
  });
}
