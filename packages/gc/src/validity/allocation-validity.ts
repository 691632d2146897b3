import { parseAddress } from '@ipamkit/models';
import type { ClusterView, PodProjection } from '../cluster-view/cluster-view.js';
import { ATTR_NAMESPACE, ATTR_POD, ATTR_SERVICE, ATTR_VMI_NAME, EVICTED_REASON, VM_OWNER_KIND } from '../constants.js';
import type { Allocation } from '../state/allocation.js';

/** What a pod lookup gave: the pod, a clean not-found, or an error (which proves nothing). */
export type PodLookup = { readonly kind: 'found'; readonly pod: PodProjection } | { readonly kind: 'missing' } | { readonly kind: 'error' };

const FINISHED_PHASES: ReadonlySet<string> = new Set(['Failed', 'Succeeded', 'Completed']);

function sameAddress(a: string, b: string): boolean | undefined {
  try {
    const x = parseAddress(a);
    const y = parseAddress(b);
    return x.version === y.version && x.value === y.value;
  } catch {
    return undefined;
  }
}

/** Rows 6–11 of design/calico-callers.md#validity-check: does the pod still account for this address? */
export function podAccountsFor(a: Allocation, pod: PodProjection): boolean {
  if (pod.nodeName !== '' && a.knode !== '' && pod.nodeName !== a.knode) return false;
  if (pod.ips.length === 0) return true;
  if (pod.phase === 'Failed' && pod.reason === EVICTED_REASON) return false;
  // A finished pod's endpoints carry no addresses, so nothing matches.
  if (FINISHED_PHASES.has(pod.phase)) return false;
  // Fast path: the same canonical text (the common case, and cheap at 150,000 allocations).
  if (pod.ips.includes(a.ip)) return true;
  for (const ip of pod.ips) {
    // An address that does not parse proves nothing either way: keep the allocation.
    const same = sameAddress(ip, a.ip);
    if (same !== false) return true;
  }
  return false;
}

/** design/calico-callers.md#validity-check: only a missing VM, with no standalone VMI, is evidence of a leak. */
export function isVMAllocationValid(a: Allocation, view: ClusterView): boolean {
  const namespace = a.attrs[ATTR_NAMESPACE] ?? '';
  const vmiName = a.attrs[ATTR_VMI_NAME] ?? '';
  const kubevirt = view.kubevirt;
  if (namespace === '' || vmiName === '' || kubevirt === undefined) return true;
  try {
    if (kubevirt.hasVirtualMachine(namespace, vmiName)) return true;
    const vmi = kubevirt.getVirtualMachineInstance(namespace, vmiName);
    if (vmi !== undefined && !vmi.ownerKinds.includes(VM_OWNER_KIND)) return true;
    return false;
  } catch {
    return true;
  }
}

/**
 * A LoadBalancer address (no `node` attribute, an `lb-` handle) is valid while its Service exists.
 * With no Service source in the view, or no `service`/`namespace` attribute, it is assumed valid.
 */
export function isLoadBalancerAllocationValid(a: Allocation, view: ClusterView): boolean {
  const services = view.services;
  const namespace = a.attrs[ATTR_NAMESPACE] ?? '';
  const service = a.attrs[ATTR_SERVICE] ?? '';
  if (services === undefined || namespace === '' || service === '') return true;
  try {
    return services.hasService(namespace, service);
  } catch {
    return true;
  }
}

/** Rows 1–3; undefined when the pod must be looked up. */
function decideWithoutPod(a: Allocation, view: ClusterView): boolean | undefined {
  if (a.isTunnelAddress()) return a.knode !== '';
  if (a.isVMAllocation()) return isVMAllocationValid(a, view);
  if (a.isLoadBalancerAddress()) return isLoadBalancerAllocationValid(a, view);
  // No pod or no namespace attribute (computed once per attrs change, see Allocation).
  if (!a.isPodIP()) return true;
  return undefined;
}

function decideWithPod(a: Allocation, lookup: PodLookup): boolean {
  if (lookup.kind === 'error') return true;
  if (lookup.kind === 'missing') return false;
  return podAccountsFor(a, lookup.pod);
}

function cachedLookup(a: Allocation, view: ClusterView): PodLookup {
  try {
    const pod = view.getPod(a.attrs[ATTR_NAMESPACE] ?? '', a.attrs[ATTR_POD] ?? '');
    return pod === undefined ? { kind: 'missing' } : { kind: 'found', pod };
  } catch {
    return { kind: 'error' };
  }
}

/**
 * design/calico-callers.md#validity-check against the cache (the scan): `decideWithPod(a, cachedLookup(a, view))` without
 * a lookup object per allocation, as it runs for every allocation of a full scan.
 */
export function isAllocationValidCached(a: Allocation, view: ClusterView): boolean {
  const early = decideWithoutPod(a, view);
  if (early !== undefined) return early;
  let pod: PodProjection | undefined;
  try {
    pod = view.getPod(a.attrs[ATTR_NAMESPACE] ?? '', a.attrs[ATTR_POD] ?? '');
  } catch {
    return true; // a cache error proves nothing
  }
  return pod !== undefined && podAccountsFor(a, pod);
}

/**
 * design/calico-callers.md#validity-check for the final re-check before a release: a live read unless the allocation's
 * node no longer resolves (`preferCache`), as Calico does.
 */
export async function isAllocationValid(a: Allocation, view: ClusterView, preferCache: boolean): Promise<boolean> {
  const early = decideWithoutPod(a, view);
  if (early !== undefined) return early;
  if (preferCache) return decideWithPod(a, cachedLookup(a, view));
  let lookup: PodLookup;
  try {
    const pod = await view.readPod(a.attrs[ATTR_NAMESPACE] ?? '', a.attrs[ATTR_POD] ?? '');
    lookup = pod === undefined ? { kind: 'missing' } : { kind: 'found', pod };
  } catch {
    lookup = { kind: 'error' };
  }
  return decideWithPod(a, lookup);
}
