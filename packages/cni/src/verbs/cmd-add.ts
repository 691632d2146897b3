import { partialAutoAssignResult, type IPAMAssignments, type IpamClient, type ReleaseOptions } from '@ipamkit/ipam-core';
import { bitsOf, ipVersionOfAddress, WINDOWS_RESERVED_HANDLE, type Namespace } from '@ipamkit/models';
import type { CniArgs } from '../config/cni-args.js';
import type { Workload } from '../config/workload.js';
import { AllocationError, messageOf } from '../errors.js';
import { detectVmiOfCall } from '../kubevirt/detect-vmi.js';
import { reuseVmAddresses } from '../kubevirt/kubevirt-add.js';
import { kubevirtAttributes, kubevirtPlan, rejectMigrationWithoutPersistence, type KubevirtPlan } from '../kubevirt/kubevirt-plan.js';
import { allocationRequest } from '../request/allocation-request.js';
import { resolvePools } from '../request/resolve-pools.js';
import { renderResult } from '../result/cni-result.js';
import { ALLOCATION_DEADLINE_MS, SHORT_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';
import { allocationAttributes } from './allocation-attributes.js';
import { lookupPodContext, readsPodContext, type PodContext } from './pod-context.js';
import { resultOf } from './result-of.js';

const bare = (cidr: string): string => cidr.split('/')[0] ?? cidr;

/** An address this call allocated and the sequence number the core returned for it. */
interface Allocated {
  readonly address: string;
  readonly sequenceNumber: bigint;
}

/** What AutoAssign returned for a family, paired address by address with its sequence number. */
function allocatedOf(a: IPAMAssignments | undefined): Allocated[] {
  if (a === undefined) return [];
  return a.ips.flatMap((address, i) => {
    const sequenceNumber = a.sequenceNumbers[i];
    return sequenceNumber === undefined ? [] : [{ address, sequenceNumber }];
  });
}

/**
 * Gives back what this call allocated, each address guarded by handle and by the sequence number
 * it was allocated under; failures are only logged (design/calico-callers.md#dual-stack).
 */
async function rollback(inv: Invocation, ipam: IpamClient, handle: string, allocated: readonly Allocated[]): Promise<void> {
  if (allocated.length === 0) return;
  const releases: ReleaseOptions[] = allocated.map((a) => ({ address: bare(a.address), handle, sequenceNumber: a.sequenceNumber }));
  try {
    await withDeadline(inv.deadline, SHORT_DEADLINE_MS, 'rolling back a partial allocation', () => ipam.releaseIPs(releases));
    inv.log.info(`released ${allocated.length} address(es) of a failed request`);
  } catch (err) {
    inv.log.error(`could not release a partial allocation (${allocated.map((a) => a.address).join(', ')}): ${messageOf(err)}`);
  }
}

function shortText(a: IPAMAssignments | undefined, version: 4 | 6, want: number): string {
  const got = a?.ips.length ?? 0;
  return [`Assigned ${got} out of ${want} requested IPv${version} addresses`, ...(a?.msgs ?? [])].join('; ');
}

async function assignExplicit(inv: Invocation, ipam: IpamClient, handleId: string, ips: readonly string[], attrs: Record<string, string>, capped: boolean): Promise<string[]> {
  const done: Allocated[] = [];
  try {
    await withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'assigning the requested addresses', async () => {
      for (const ip of ips) {
        const { sequenceNumber } = await ipam.assignIP({ ip, handleId, attrs, hostname: inv.node, intendedUse: 'Workload', ...(capped ? { maxAllocToHandlePerIPVersion: 1 } : {}) });
        done.push({ address: ip, sequenceNumber });
      }
    });
  } catch (err) {
    await rollback(inv, ipam, handleId, done);
    throw err;
  }
  return ips.map((ip) => `${ip}/${bitsOf(ipVersionOfAddress(ip))}`);
}

async function assignAuto(
  inv: Invocation,
  ipam: IpamClient,
  req: { handleId: string; attrs: Record<string, string>; num4: number; num6: number; ipv4Pools: string[]; ipv6Pools: string[]; namespace?: Namespace; capped: boolean },
): Promise<string[]> {
  const windows = process.platform === 'win32';
  let got: { ipv4?: IPAMAssignments; ipv6?: IPAMAssignments };
  try {
    got = await withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'assigning addresses', () =>
      ipam.autoAssign({
        num4: req.num4,
        num6: req.num6,
        handleId: req.handleId,
        attrs: req.attrs,
        hostname: inv.node,
        ipv4Pools: req.ipv4Pools,
        ipv6Pools: req.ipv6Pools,
        intendedUse: 'Workload',
        maxBlocksPerHost: inv.conf.windowsUseSingleNetwork ? 1 : 0,
        ...(req.namespace === undefined ? {} : { namespace: req.namespace }),
        // KubeVirt persistence: a concurrent duplicate ADD gets the VM's address, not a second one.
        ...(req.capped ? { maxAllocToHandlePerIPVersion: 1 } : {}),
        ...(windows ? { hostReservedAttrIPv4s: { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' } } : {}),
      }),
    );
  } catch (err) {
    // Unlike Calico (design/calico-callers.md#cni-quirks), a failure of either family gives back what the other got.
    const partial = partialAutoAssignResult(err);
    await rollback(inv, ipam, req.handleId, [...allocatedOf(partial?.ipv4), ...allocatedOf(partial?.ipv6)]);
    throw err;
  }
  const v4Short = req.num4 > 0 && (got.ipv4?.ips.length ?? 0) < req.num4;
  const v6Short = req.num6 > 0 && (got.ipv6?.ips.length ?? 0) < req.num6;
  if (v4Short || v6Short) {
    await rollback(inv, ipam, req.handleId, [...allocatedOf(got.ipv4), ...allocatedOf(got.ipv6)]);
    const version = v4Short ? 4 : 6;
    const text = shortText(version === 4 ? got.ipv4 : got.ipv6, version, version === 4 ? req.num4 : req.num6);
    throw new AllocationError(`failed to request IPv${version} addresses: ${text}`);
  }
  return [...(got.ipv4?.ips.slice(0, req.num4) ?? []), ...(got.ipv6?.ips.slice(0, req.num6) ?? [])];
}

/** KubeVirt detection (design/calico-callers.md#kubevirt); its errors keep their code under Calico's prefix. */
async function kubevirt(inv: Invocation, workload: Workload): Promise<KubevirtPlan | undefined> {
  const detection = await detectVmiOfCall(() => inv.kubeReader(), workload);
  if (detection.kind === 'podGone') throw new AllocationError('failed to get VMI info: pod not found');
  if (detection.kind === 'none') return undefined;
  const plan = await kubevirtPlan(await inv.store(), inv.conf.name, workload, detection.vmi);
  rejectMigrationWithoutPersistence(plan);
  return plan;
}

/**
 * Starts the reads of the AutoAssign the network config alone asks for; annotations that change
 * the request only leave them unused (design/cni.md, "Read-ahead").
 */
function readAheadOfConfig(inv: Invocation, args: CniArgs): void {
  let request;
  try {
    request = allocationRequest(inv.conf, args, {});
  } catch {
    return;
  }
  if (request.kind === 'auto') inv.readAhead({ num4: request.assignIpv4 ? 1 : 0, num6: request.assignIpv6 ? 1 : 0 });
}

/** ADD (design/calico-callers.md#add, with this package's differences in design/cni.md). Returns stdout. */
export async function cmdAdd(inv: Invocation, workload: Workload, args: CniArgs): Promise<string> {
  const plan = await kubevirt(inv, workload);
  // The datastore opens while the pod and its namespace are read (design/cni.md, "Start-up cost").
  inv.openInBackground();
  // The pod and its namespace hold no IPAM state: they are asked for before the host lock is taken
  // (design/cni.md, "Read-ahead"). A failed read is reported once the lock is held, as before.
  const podContext = lookupPodContext(inv, workload);
  podContext.catch(() => undefined);
  // One turn of the event loop sends those reads now: else they leave only after this call has
  // taken its lock and started the allocation's reads, and a server that answers in order would
  // meet them last (design/cni.md, "Read-ahead").
  if (readsPodContext(inv, workload)) await new Promise<void>((resolve) => setImmediate(resolve));
  // The host lock is held from here, so the allocation's first reads can go out with the pod's
  // (design/cni.md, "Read-ahead"): no other call on this node writes in between.
  return inv.locked(() => addUnderLock(inv, workload, args, plan, podContext));
}

async function addUnderLock(inv: Invocation, workload: Workload, args: CniArgs, plan: KubevirtPlan | undefined, podContext: Promise<PodContext>): Promise<string> {
  const handleId = plan?.handleId ?? workload.handleId;
  const capped = plan?.persistence === true;
  readAheadOfConfig(inv, args);
  const pod = await podContext;
  const request = allocationRequest(inv.conf, args, pod);
  if (request.kind === 'noIpam') {
    return renderResult(inv.conf.cniVersion, resultOf(inv.conf, request.ips.map((ip) => `${ip}/${bitsOf(ipVersionOfAddress(ip))}`)));
  }
  const ipam = await inv.ipam();
  const base = allocationAttributes(inv.node, workload, inv.clock.now());
  const attrs = plan === undefined ? base : kubevirtAttributes(plan, base);
  if (plan?.persistence === true) {
    const reused = await withDeadline(inv.deadline, SHORT_DEADLINE_MS, 'reusing the VM addresses', () => reuseVmAddresses(ipam, plan, attrs));
    if (reused !== undefined) {
      inv.log.info(`reusing ${reused.addresses.join(', ')} of VM handle ${handleId}`);
      const result = resultOf(inv.conf, reused.addresses);
      return renderResult(inv.conf.cniVersion, reused.routes ? result : { ...result, routes: [] });
    }
  }
  let addresses: string[];
  if (request.kind === 'explicit') {
    addresses = await assignExplicit(inv, ipam, handleId, request.ips, attrs, capped);
  } else {
    const ds = await inv.store();
    const listPools = async () => ds.ipPools.list();
    const [ipv4Pools, ipv6Pools] = await withDeadline(inv.deadline, SHORT_DEADLINE_MS, 'resolving pools', () =>
      // Both lists are checked even when a family is not requested, as Calico does: a bad entry is a bad config.
      Promise.all([resolvePools(request.ipv4Pools, 4, listPools), resolvePools(request.ipv6Pools, 6, listPools)]),
    );
    addresses = await assignAuto(inv, ipam, {
      handleId,
      attrs,
      num4: request.assignIpv4 ? 1 : 0,
      num6: request.assignIpv6 ? 1 : 0,
      ipv4Pools,
      ipv6Pools,
      capped,
      ...(pod.namespace === undefined ? {} : { namespace: pod.namespace }),
    });
  }
  inv.log.info(`assigned ${addresses.join(', ')} to handle ${handleId}`);
  return renderResult(inv.conf.cniVersion, resultOf(inv.conf, addresses));
}
