import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIpamClient, sequenceNumberFor, type Clock, type IpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import {
  cniHandleId,
  loadBalancerHandleId,
  tunnelHandleId,
  WINDOWS_RESERVED_HANDLE,
  type Datastore,
} from '@ipamkit/models';
import type { ClusterState } from '../src/index.js';

export const FIXED_NOW = new Date('2026-01-01T00:00:00.000Z');
export const TIMESTAMP = '2026-01-01 00:00:00 +0000 UTC';

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date = FIXED_NOW) {
    this.ms = start.getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Collects what a command writes. */
export class Sink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export type BackendName = 'sqlite' | 'etcd';

/** Opens a fresh, empty datastore of the backend; `etcdEndpoint` is needed for etcd. */
export async function openBackend(
  backend: BackendName,
  etcdEndpoint: () => string,
): Promise<{ ds: Datastore; flags: string[]; cleanup: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cli-'));
    const path = join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path });
    return {
      ds,
      flags: ['--datastore', 'sqlite', '--sqlite-path', path],
      cleanup: async () => {
        await ds.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const prefix = `/cli-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const ds = await createDatastore({ type: 'etcd', endpoints: [etcdEndpoint()], prefix });
  return { ds, flags: [], cleanup: () => ds.close() };
}

/** Releases `ip` as a careful caller does: with the sequence number it currently carries. */
export async function releaseCurrent(ds: Datastore, ipam: IpamClient, ip: string, blockCidr: string): Promise<void> {
  const block = await ds.blocks.get(blockCidr);
  await ipam.releaseIPs([{ address: ip, sequenceNumber: sequenceNumberFor(block, ip) ?? 0n }]);
}

const pod = (namespace: string, name: string, node: string): Record<string, string> => ({ namespace, pod: name, node, timestamp: TIMESTAMP });

async function assignPod(ipam: IpamClient, ip: string, host: string, name: string, container: string, node = host): Promise<void> {
  await ipam.assignIP({ ip, hostname: host, handleId: cniHandleId('k8s-pod-network', container), attrs: pod('default', name, node), intendedUse: 'Workload' });
}

/**
 * Pools, a reservation, nodes and a handful of allocations: affine pods, a borrowed pod, IPv4 and
 * IPv6 tunnel addresses, a LoadBalancer address and an annotation-pinned pod in a pool that does
 * not select its node. Every address is placed with AssignIP so the layout is exact.
 */
export async function seedBase(ds: Datastore, clock: Clock): Promise<IpamClient> {
  const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
  await ds.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 26, nodeSelector: "zone == 'a'" });
  await ds.ipPools.create({ name: 'pool-b', cidr: 'fd00::/120', blockSize: 122, nodeSelector: 'all()' });
  await ds.ipPools.create({ name: 'pool-lb', cidr: '10.2.0.0/28', blockSize: 28, allowedUses: ['LoadBalancer'] });
  await ds.ipPools.create({ name: 'pool-z', cidr: '10.1.0.0/24', blockSize: 26, nodeSelector: "zone == 'b'" });
  await ds.ipReservations.create({ name: 'res-1', reservedCIDRs: ['10.0.0.60/30'] });
  await ds.nodes.create({
    name: 'node-a',
    labels: { zone: 'a' },
    tunnelAddresses: { ipv4IPIPTunnelAddr: '10.0.0.1', ipv6VXLANTunnelAddr: 'fd00::1' },
  });
  await ds.nodes.create({ name: 'node-b', labels: { zone: 'a' } });
  await ds.nodes.create({ name: 'node-c', labels: { zone: 'c' } });

  await ipam.assignIP({
    ip: '10.0.0.1',
    hostname: 'node-a',
    handleId: tunnelHandleId('ipip', 'node-a'),
    attrs: { node: 'node-a', type: 'ipipTunnelAddress' },
    intendedUse: 'Tunnel',
  });
  await assignPod(ipam, '10.0.0.2', 'node-a', 'web-1', 'c-web-1');
  await assignPod(ipam, '10.0.0.3', 'node-a', 'web-2', 'c-web-2');
  // node-b borrows from node-a's block (strict affinity is off).
  await assignPod(ipam, '10.0.0.4', 'node-b', 'db-1', 'c-db-1');
  await assignPod(ipam, '10.0.0.70', 'node-b', 'db-2', 'c-db-2');
  await ipam.assignIP({
    ip: 'fd00::1',
    hostname: 'node-a',
    handleId: tunnelHandleId('vxlan-v6', 'node-a'),
    attrs: { node: 'node-a', type: 'vxlanV6TunnelAddress' },
    intendedUse: 'Tunnel',
  });
  await ipam.assignIP({
    ip: '10.2.0.1',
    hostname: 'load-balancer',
    handleId: loadBalancerHandleId({ name: 'lb-live', namespace: 'default', uid: 'uid-live' }),
    attrs: { service: 'lb-live', namespace: 'default', type: 'LoadBalancer', timestamp: TIMESTAMP },
    intendedUse: 'LoadBalancer',
  });
  // pool-z does not select node-a: only the pod's ipAddrs annotation brings this address there.
  await assignPod(ipam, '10.1.0.5', 'node-a', 'pinned', 'c-pinned');
  return ipam;
}

export const BASE_PODS = [
  { namespace: 'default', name: 'web-1', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.2'] },
  { namespace: 'default', name: 'web-2', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.3'] },
  { namespace: 'default', name: 'db-1', nodeName: 'node-b', phase: 'Running', ips: ['10.0.0.4'] },
  { namespace: 'default', name: 'db-2', nodeName: 'node-b', phase: 'Running', ips: ['10.0.0.70'] },
  {
    namespace: 'default',
    name: 'pinned',
    nodeName: 'node-a',
    phase: 'Running',
    ips: ['10.1.0.5'],
    annotations: { 'cni.projectcalico.org/ipAddrs': '["10.1.0.5"]' },
  },
];

/**
 * The base plus one allocation or object of every `check` finding class (see the test's table).
 * Returns the cluster state (pods, services) that goes with it.
 */
export async function seedCheckFixture(ds: Datastore, clock: Clock): Promise<ClusterState> {
  const ipam = await seedBase(ds, clock);
  await ipam.assignIP({
    ip: '10.2.0.2',
    hostname: 'load-balancer',
    handleId: loadBalancerHandleId({ name: 'lb-gone', namespace: 'default', uid: 'uid-gone' }),
    attrs: { service: 'lb-gone', namespace: 'default', type: 'LoadBalancer', timestamp: TIMESTAMP },
    intendedUse: 'LoadBalancer',
  });
  await ds.nodes.create({ name: 'node-gone', labels: { zone: 'a' } });
  await ipam.assignIP({
    ip: '10.0.0.130',
    hostname: 'node-gone',
    handleId: tunnelHandleId('vxlan', 'node-gone'),
    attrs: { node: 'node-gone', type: 'vxlanTunnelAddress' },
    intendedUse: 'Tunnel',
  });
  await ds.nodes.delete('node-gone');
  await assignPod(ipam, '10.0.0.5', 'node-a', 'job-1', 'c-job-1');
  await assignPod(ipam, '10.0.0.6', 'node-a', 'old-pod', 'c-old-pod');
  await ipam.assignIP({ ip: '10.0.0.8', hostname: 'node-a', intendedUse: 'Workload' });
  // Cooldown: released with a 10-minute cooldown configured.
  await ipam.setIPAMConfig({ ...(await ipam.getIPAMConfig()), ipCooldownSeconds: 600 });
  await assignPod(ipam, '10.0.0.7', 'node-a', 'gone-2', 'c-gone-2');
  await releaseCurrent(ds, ipam, '10.0.0.7', '10.0.0.0/26');
  // Windows: a block whose first and last ordinals are host-reserved.
  await ds.nodes.create({ name: 'node-w', labels: { zone: 'a' } });
  await ipam.assignIP({
    ip: '10.0.0.194',
    hostname: 'node-w',
    handleId: cniHandleId('k8s-pod-network', 'c-win-1'),
    attrs: pod('default', 'win-1', 'node-w'),
    intendedUse: 'Workload',
    hostReservedAttr: { startOfBlock: 1, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' },
  });
  // Block without affinity: node-b's affinity object is gone, its block still names it.
  const affinity = await ds.affinities.get({ host: 'node-b', type: 'host', cidr: '10.0.0.64/26' });
  await ds.affinities.delete(affinity);
  // Affinity without block.
  await ds.affinities.create({ host: 'node-b', type: 'host', cidr: '10.1.0.128/26', state: 'confirmed', deleted: false });
  // Leaked handle, and a block allocation whose handle object is missing.
  await ds.handles.create({ handleId: 'k8s-pod-network.orphan', block: {}, deleted: false });
  await ds.handles.delete(await ds.handles.get(cniHandleId('k8s-pod-network', 'c-db-2')));
  // An invalid block: one ordinal is neither allocated nor free.
  await ds.blocks.create({
    cidr: '10.1.0.64/26',
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 63 }, (_, i) => i),
    attributes: [],
    sequenceNumber: 1n,
    sequenceNumberForAllocation: {},
    deleted: false,
  });
  return {
    pods: [
      ...BASE_PODS,
      { namespace: 'default', name: 'job-1', nodeName: 'node-a', phase: 'Succeeded', ips: ['10.0.0.5'] },
      { namespace: 'default', name: 'impostor', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.2'] },
      { namespace: 'default', name: 'manual', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.9'] },
      { namespace: 'default', name: 'hostnet', nodeName: 'node-a', phase: 'Running', ips: ['192.168.1.10'] },
      { namespace: 'default', name: 'win-1', nodeName: 'node-w', phase: 'Running', ips: ['10.0.0.194'] },
    ],
    services: [{ namespace: 'default', name: 'lb-live', ingressIPs: ['10.2.0.1'] }],
  };
}
