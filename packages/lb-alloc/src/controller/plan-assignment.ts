import { ipVersionOfAddress } from '@ipamkit/models';
import type { IPFamily, LbService } from '../service/lb-service.js';
import type { ServiceRequests } from '../service/parse-service-annotations.js';

export interface AssignmentPlan {
  /** Requested addresses not yet held: AssignIP each, in order, stopping at the first failure. */
  readonly assign: readonly string[];
  /** Auto-assignment counts per family. */
  readonly num4: number;
  readonly num6: number;
}

/** The families a Service should hold an address of; SingleStack takes the first only. */
export function wantedFamilies(svc: LbService): IPFamily[] {
  const families = [...new Set(svc.ipFamilies)];
  return svc.ipFamilyPolicy === 'SingleStack' ? families.slice(0, 1) : families;
}

/**
 * What to ask IPAM for (design/calico-callers.md#per-service-sync). Unlike upstream, auto-assignment counts are per family: a
 * dual-stack Service holding only an IPv4 address still gets its IPv6 one (design/lb-alloc.md
 * "Fixed defects"). Explicitly requested addresses replace auto-assignment entirely.
 */
export function planAssignment(svc: LbService, requests: ServiceRequests, tracked: readonly string[]): AssignmentPlan {
  if (requests.addresses !== undefined) {
    return { assign: requests.addresses.filter((ip) => !tracked.includes(ip)), num4: 0, num6: 0 };
  }
  const held = new Set<number>();
  for (const ip of tracked) {
    try {
      held.add(ipVersionOfAddress(ip));
    } catch {
      // An unparsable tracked address holds no family; planReleases has already dropped it.
    }
  }
  const families = wantedFamilies(svc);
  return {
    assign: [],
    num4: families.includes('IPv4') && !held.has(4) ? 1 : 0,
    num6: families.includes('IPv6') && !held.has(6) ? 1 : 0,
  };
}

/** The number of addresses a managed Service should end up with (for the pending metric). */
export function targetCount(svc: LbService, requests: ServiceRequests): number {
  return requests.addresses?.length ?? wantedFamilies(svc).length;
}

/** design/calico-callers.md#per-service-sync `needsStatusUpdate`: the ingress list differs from the tracked addresses. */
export function needsStatusUpdate(svc: LbService, tracked: readonly string[]): boolean {
  return svc.ingressIPs.length !== tracked.length || svc.ingressIPs.some((ip) => !tracked.includes(ip));
}
