import { partialAutoAssignResult, type IPAMAssignments, type IpamClient } from '@ipamkit/ipam-core';
import { bitsOf, ipVersionOfAddress, WINDOWS_RESERVED_HANDLE, type Namespace } from '@ipamkit/models';
import type { CniArgs } from '../config/cni-args.js';
import type { Workload } from '../config/workload.js';
import { AllocationError } from '../errors.js';
import { allocationRequest, type AnnotationSources } from '../request/allocation-request.js';
import { resolvePools } from '../request/resolve-pools.js';
import { renderResult } from '../result/cni-result.js';
import { ALLOCATION_DEADLINE_MS, SHORT_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';
import { allocationAttributes } from './allocation-attributes.js';
import { lookupPodContext } from './pod-context.js';
import { resultOf } from './result-of.js';

const bare = (cidr: string): string => cidr.split('/')[0] ?? cidr;

/** Gives back what this call allocated, by address and handle; failures are only logged (spec/cni.md §13). */
async function rollback(inv: Invocation, ipam: IpamClient, handleId: string, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  try {
    await withDeadline(SHORT_DEADLINE_MS, 'rolling back a partial allocation', () => ipam.releaseIPs(addresses.map((a) => ({ address: bare(a), handle: handleId }))));
    inv.log.info(`released ${addresses.length} address(es) of a failed request`);
  } catch (err) {
    inv.log.error(`could not release a partial allocation (${addresses.join(', ')}): ${err instanceof Error ? err.message : String(err)}`);
  }
}

function shortText(a: IPAMAssignments | undefined, version: 4 | 6, want: number): string {
  const got = a?.ips.length ?? 0;
  return [`Assigned ${got} out of ${want} requested IPv${version} addresses`, ...(a?.msgs ?? [])].join('; ');
}

async function assignExplicit(inv: Invocation, ipam: IpamClient, handleId: string, ips: readonly string[], attrs: Record<string, string>): Promise<string[]> {
  const done: string[] = [];
  try {
    await inv.locked(() =>
      withDeadline(ALLOCATION_DEADLINE_MS, 'assigning the requested addresses', async () => {
        for (const ip of ips) {
          await ipam.assignIP({ ip, handleId, attrs, hostname: inv.node, intendedUse: 'Workload' });
          done.push(ip);
        }
      }),
    );
  } catch (err) {
    await rollback(inv, ipam, handleId, done);
    throw err;
  }
  return ips.map((ip) => `${ip}/${bitsOf(ipVersionOfAddress(ip))}`);
}

async function assignAuto(
  inv: Invocation,
  ipam: IpamClient,
  req: { handleId: string; attrs: Record<string, string>; num4: number; num6: number; ipv4Pools: string[]; ipv6Pools: string[]; namespace?: Namespace },
): Promise<string[]> {
  const windows = process.platform === 'win32';
  let got: { ipv4?: IPAMAssignments; ipv6?: IPAMAssignments };
  try {
    got = await inv.locked(() =>
      withDeadline(ALLOCATION_DEADLINE_MS, 'assigning addresses', () =>
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
          ...(windows ? { hostReservedAttrIPv4s: { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' } } : {}),
        }),
      ),
    );
  } catch (err) {
    // Unlike Calico (spec/cni.md §20), a failure of either family gives back what the other got.
    const partial = partialAutoAssignResult(err);
    await rollback(inv, ipam, req.handleId, [...(partial?.ipv4?.ips ?? []), ...(partial?.ipv6?.ips ?? [])]);
    throw err;
  }
  const all = [...(got.ipv4?.ips ?? []), ...(got.ipv6?.ips ?? [])];
  const v4Short = req.num4 > 0 && (got.ipv4?.ips.length ?? 0) < req.num4;
  const v6Short = req.num6 > 0 && (got.ipv6?.ips.length ?? 0) < req.num6;
  if (v4Short || v6Short) {
    await rollback(inv, ipam, req.handleId, all);
    const version = v4Short ? 4 : 6;
    const text = shortText(version === 4 ? got.ipv4 : got.ipv6, version, version === 4 ? req.num4 : req.num6);
    throw new AllocationError(`failed to request IPv${version} addresses: ${text}`);
  }
  return [...(got.ipv4?.ips.slice(0, req.num4) ?? []), ...(got.ipv6?.ips.slice(0, req.num6) ?? [])];
}

/** ADD (spec/cni.md §9, with this package's differences in design/cni.md). Returns stdout. */
export async function cmdAdd(inv: Invocation, workload: Workload, args: CniArgs): Promise<string> {
  const pod = await lookupPodContext(inv, workload);
  const sources: AnnotationSources = {};
  if (pod.podAnnotations !== undefined) sources.pod = pod.podAnnotations;
  if (pod.namespaceAnnotations !== undefined) sources.namespace = pod.namespaceAnnotations;
  const request = allocationRequest(inv.conf, args, sources);
  if (request.kind === 'noIpam') {
    return renderResult(inv.conf.cniVersion, resultOf(inv.conf, request.ips.map((ip) => `${ip}/${bitsOf(ipVersionOfAddress(ip))}`)));
  }
  const ipam = await inv.ipam();
  const attrs = allocationAttributes(inv.node, workload, inv.clock.now());
  let addresses: string[];
  if (request.kind === 'explicit') {
    addresses = await assignExplicit(inv, ipam, workload.handleId, request.ips, attrs);
  } else {
    const ds = await inv.store();
    const listPools = async () => ds.ipPools.list();
    const [ipv4Pools, ipv6Pools] = await withDeadline(SHORT_DEADLINE_MS, 'resolving pools', () =>
      Promise.all([resolvePools(request.assignIpv4 ? request.ipv4Pools : [], 4, listPools), resolvePools(request.assignIpv6 ? request.ipv6Pools : [], 6, listPools)]),
    );
    addresses = await assignAuto(inv, ipam, {
      handleId: workload.handleId,
      attrs,
      num4: request.assignIpv4 ? 1 : 0,
      num6: request.assignIpv6 ? 1 : 0,
      ipv4Pools,
      ipv6Pools,
      ...(pod.namespace === undefined ? {} : { namespace: pod.namespace }),
    });
  }
  inv.log.info(`assigned ${addresses.join(', ')} to handle ${workload.handleId}`);
  return renderResult(inv.conf.cniVersion, resultOf(inv.conf, addresses));
}
