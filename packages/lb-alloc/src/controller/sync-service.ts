import { type Clock, type IPAMAssignments, type IpamClient, partialAutoAssignResult } from '@ipamkit/ipam-core';
import { type IPPool, loadBalancerHandleId, NoQualifiedPoolError, NotFoundError } from '@ipamkit/models';
import { LOAD_BALANCER_HOST } from '../constants.js';
import type { LbClusterView } from '../cluster-view/lb-cluster-view.js';
import { ServiceAnnotationError } from '../errors.js';
import type { Logger } from '@ipamkit/kube-runtime';
import type { LbMetrics, PendingReason } from '../metrics/lb-metrics.js';
import { isManagedService } from '../service/is-managed-service.js';
import { serviceKeyString, type LbService, type ServiceKey } from '../service/lb-service.js';
import { parseServiceAnnotations } from '../service/parse-service-annotations.js';
import type { AllocationTracker } from './allocation-tracker.js';
import { goTimestamp } from './go-timestamp.js';
import { needsStatusUpdate, planAssignment, targetCount } from './plan-assignment.js';
import { planReleases } from './plan-releases.js';

/** What one Service sync needs; the controller owns all of it and runs syncs one at a time. */
export interface SyncContext {
  readonly ipam: IpamClient;
  readonly view: LbClusterView;
  readonly tracker: AllocationTracker;
  readonly lbPools: readonly IPPool[];
  readonly assignIPs: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly metrics: LbMetrics;
  /** Service key string → why it is short of addresses; the sync keeps its own entry current. */
  readonly pending: Map<string, PendingReason>;
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The Service a key names, only if it is the same object (same UID, hence same handle). */
export function serviceOfKey(view: LbClusterView, key: ServiceKey): LbService | undefined {
  const svc = view.getService(key.namespace, key.name);
  return svc !== undefined && loadBalancerHandleId(svc) === key.handle ? svc : undefined;
}

export function keyOfService(svc: LbService): ServiceKey {
  return { handle: loadBalancerHandleId(svc), name: svc.name, namespace: svc.namespace };
}

/**
 * Releases everything a handle owns, then forgets it. A handle that is already gone counts as
 * released (upstream keeps retrying it forever, design/calico-callers.md#loadbalancer-release-paths): the tracked addresses are released by
 * address instead, guarded by the handle so another Service's address is never touched.
 */
async function releaseHandle(ctx: SyncContext, key: ServiceKey): Promise<boolean> {
  const tracked = ctx.tracker.ipsOf(key);
  try {
    await ctx.ipam.releaseByHandle(key.handle);
  } catch (err) {
    if (!(err instanceof NotFoundError)) {
      ctx.metrics.countError('release');
      ctx.log.warn('failed to release the addresses of a handle', { handle: key.handle, error: describe(err) });
      return false;
    }
    if (tracked.length > 0 && !(await releaseAddresses(ctx, key, tracked))) return false;
  }
  ctx.tracker.deleteService(key);
  return true;
}

/** Releases single addresses of this Service (never another handle's), then untracks them. */
async function releaseAddresses(ctx: SyncContext, key: ServiceKey, ips: readonly string[]): Promise<boolean> {
  try {
    // eslint-disable-next-line ipamkit/require-release-sequence-number -- guarded by the handle instead: it is derived from this Service's UID and only this (serial) controller allocates under it, so a re-allocated address belongs to another handle and the release is refused
    await ctx.ipam.releaseIPs(ips.map((address) => ({ address, handle: key.handle })));
  } catch (err) {
    ctx.metrics.countError('release');
    ctx.log.warn('failed to release addresses', { service: serviceKeyString(key), ips, error: describe(err) });
    return false;
  }
  for (const ip of ips) ctx.tracker.releaseFromService(ip);
  return true;
}

async function writeIngress(ctx: SyncContext, svc: LbService, ips: readonly string[]): Promise<void> {
  try {
    await ctx.view.writeIngress(svc, ips);
  } catch (err) {
    ctx.metrics.countError('status');
    ctx.log.warn('failed to write the Service status', { service: `${svc.namespace}/${svc.name}`, error: describe(err) });
  }
}

/** Releases a Service's addresses and removes only them from its ingress list. */
async function withdraw(ctx: SyncContext, key: ServiceKey, svc: LbService | undefined): Promise<void> {
  const calicoIPs = ctx.tracker.ipsOf(key);
  if (calicoIPs.length === 0 || !(await releaseHandle(ctx, key))) return;
  if (svc?.type === 'LoadBalancer') {
    const kept = svc.ingressIPs.filter((ip) => !calicoIPs.includes(ip));
    if (kept.length !== svc.ingressIPs.length) await writeIngress(ctx, svc, kept);
  }
}

/** Requested addresses, in order, stopping at the first failure (design/calico-callers.md#per-service-sync, assigning step 2). */
async function assignRequested(ctx: SyncContext, svc: LbService, key: ServiceKey, ips: readonly string[], attrs: Record<string, string>): Promise<boolean> {
  for (const ip of ips) {
    try {
      await ctx.ipam.assignIP({ ip, handleId: key.handle, attrs, hostname: LOAD_BALANCER_HOST, intendedUse: 'LoadBalancer' });
      ctx.tracker.assignToService(ip, key);
    } catch (err) {
      ctx.metrics.countError('assign');
      ctx.log.warn('failed to assign the requested address', { service: `${svc.namespace}/${svc.name}`, ip, error: describe(err) });
      return false;
    }
  }
  return true;
}

/**
 * One Service (design/calico-callers.md#per-service-sync), with the fixes of design/lb-alloc.md "Fixed defects". Errors are logged
 * and recorded in the pending map; the next event or full sync tries again.
 */
export async function syncService(ctx: SyncContext, key: ServiceKey): Promise<void> {
  const id = serviceKeyString(key);
  ctx.pending.delete(id);
  const svc = serviceOfKey(ctx.view, key);
  const managed = svc !== undefined && isManagedService(svc, ctx.assignIPs);
  if (ctx.lbPools.length === 0 || !managed) {
    await withdraw(ctx, key, svc);
    if (managed) {
      ctx.pending.set(id, 'no_pools');
      ctx.log.info('no IP pools with allowedUses LoadBalancer; not assigning', { service: id });
    }
    return;
  }
  let requests;
  try {
    requests = parseServiceAnnotations(svc, ctx.lbPools);
  } catch (err) {
    if (!(err instanceof ServiceAnnotationError)) throw err;
    ctx.pending.set(id, 'invalid_request');
    ctx.log.warn('failed to parse annotations for service', { service: id, error: err.message });
    return;
  }
  const toRelease = planReleases({ requests, tracked: ctx.tracker.ipsOf(key), lbPools: ctx.lbPools });
  if (toRelease.length > 0 && !(await releaseAddresses(ctx, key, toRelease))) {
    ctx.pending.set(id, 'assign_failed');
    return;
  }
  const plan = planAssignment(svc, requests, ctx.tracker.ipsOf(key));
  const attrs = { service: svc.name, namespace: svc.namespace, type: svc.type, timestamp: goTimestamp(ctx.clock.now()) };
  let failed: PendingReason | undefined;
  if (!(await assignRequested(ctx, svc, key, plan.assign, attrs))) failed = 'assign_failed';
  if (plan.num4 + plan.num6 > 0) failed = (await autoAssign(ctx, svc, key, { ...plan, attrs, requests })) ?? failed;
  const tracked = ctx.tracker.ipsOf(key);
  if (failed === undefined && tracked.length < targetCount(svc, requests)) failed = 'pool_exhausted';
  if (failed !== undefined) ctx.pending.set(id, failed);
  if (needsStatusUpdate(svc, tracked)) await writeIngress(ctx, svc, tracked);
}

interface AutoArgs {
  readonly num4: number;
  readonly num6: number;
  readonly attrs: Record<string, string>;
  readonly requests: { readonly ipv4Pools?: readonly string[]; readonly ipv6Pools?: readonly string[] };
}

/** Auto-assignment (design/calico-callers.md#per-service-sync, assigning steps 4–5); returns a pending reason when short. */
async function autoAssign(ctx: SyncContext, svc: LbService, key: ServiceKey, args: AutoArgs): Promise<PendingReason | undefined> {
  const namespace = ctx.view.getNamespace(svc.namespace);
  if (namespace === undefined) {
    ctx.log.warn(`failed to get namespace ${svc.namespace}`, { service: serviceKeyString(key) });
    return 'namespace_missing';
  }
  try {
    const result = await ctx.ipam.autoAssign({
      num4: args.num4,
      num6: args.num6,
      handleId: key.handle,
      attrs: args.attrs,
      hostname: LOAD_BALANCER_HOST,
      intendedUse: 'LoadBalancer',
      namespace,
      // One address per family per handle: a second controller (or a restart that raced an
      // assignment) gets the address already held instead of a new one.
      maxAllocToHandlePerIPVersion: 1,
      ...(args.requests.ipv4Pools === undefined ? {} : { ipv4Pools: [...args.requests.ipv4Pools] }),
      ...(args.requests.ipv6Pools === undefined ? {} : { ipv6Pools: [...args.requests.ipv6Pools] }),
    });
    const ips = trackAssigned(ctx, key, result);
    if (ips.length < args.num4 + args.num6) {
      ctx.log.warn('auto-assignment returned fewer addresses than requested', { service: serviceKeyString(key), msgs: [...(result.ipv4?.msgs ?? []), ...(result.ipv6?.msgs ?? [])] });
      return 'pool_exhausted';
    }
    return undefined;
  } catch (err) {
    // A family that failed after the other succeeded leaves the success allocated: track it.
    const partial = partialAutoAssignResult(err);
    if (partial !== undefined) trackAssigned(ctx, key, partial);
    ctx.metrics.countError('assign');
    ctx.log.warn('failed to auto-assign addresses', { service: serviceKeyString(key), error: describe(err) });
    return err instanceof NoQualifiedPoolError ? 'no_pools' : 'assign_failed';
  }
}

function trackAssigned(ctx: SyncContext, key: ServiceKey, result: { ipv4?: IPAMAssignments | undefined; ipv6?: IPAMAssignments | undefined }): string[] {
  // AutoAssign reports block-masked addresses (`10.0.0.5/26`); the tracker keys bare addresses.
  const ips = [...(result.ipv4?.ips ?? []), ...(result.ipv6?.ips ?? [])].map((cidr) => cidr.split('/')[0] ?? cidr);
  for (const ip of ips) ctx.tracker.assignToService(ip, key);
  return ips;
}
