import { createIpamClient, type Clock } from '@ipamkit/ipam-core';
import {
  cniHandleId,
  loadBalancerHandleId,
  tunnelHandleId,
  vmHandleId,
  type Datastore,
  type Node,
} from '@ipamkit/models';
import type { MigrationContents } from '../src/migrate/migration-contents.js';
import { readMigrationContents } from '../src/migrate/migrate-export.js';
import { TIMESTAMP } from './fixtures.js';

export const NODE_A = 'Node-A.example.com';
export const NODE_B = 'node-b.example.com';
export const LB_HANDLE = loadBalancerHandleId({ name: 'lb-1', namespace: 'default', uid: 'uid-1' });
export const VM_HANDLE = vmHandleId('k8s-pod-network', 'vms', 'vm-1');
export const POD_HANDLE = cniHandleId('k8s-pod-network', 'c-web-1');

function k8sNode(name: string, k8sName: string | undefined, labels: Record<string, string>): Node {
  const orchRefs = k8sName === undefined ? [{ orchestrator: 'openstack', nodeName: name }] : [{ orchestrator: 'k8s', nodeName: k8sName }];
  return { name, labels, unknownFields: { spec: { orchRefs } } };
}

/**
 * An etcd-style cluster: node names are FQDNs with capitals, each with a k8s orchRef to its
 * Kubernetes name. Tunnel addresses of IPv4 and IPv6 types, a pod, a KubeVirt VM, a LoadBalancer.
 */
export async function seedMigrationSource(ds: Datastore, clock: Clock, options: { nodeCWithoutK8sRef?: boolean } = {}): Promise<void> {
  const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
  await ds.ipPools.create({ name: 'pool-v4', cidr: '10.0.0.0/24', blockSize: 26, nodeSelector: 'all()', ipipMode: 'Always' });
  await ds.ipPools.create({ name: 'pool-v6', cidr: 'fd00::/120', blockSize: 122, nodeSelector: 'all()' });
  await ds.ipPools.create({ name: 'pool-lb', cidr: '10.2.0.0/28', blockSize: 28, allowedUses: ['LoadBalancer'] });
  await ds.ipReservations.create({ name: 'res-1', reservedCIDRs: ['10.0.0.60/30'] });
  await ds.nodes.create(k8sNode(NODE_A, 'node-a', { zone: 'a' }));
  await ds.nodes.create(k8sNode(NODE_B, 'node-b', { zone: 'b' }));
  if (options.nodeCWithoutK8sRef === true) await ds.nodes.create(k8sNode('node-c', undefined, {}));

  const tunnel = async (ip: string, host: string, type: 'ipip' | 'vxlan' | 'wireguard-v6' | 'vxlan-v6', attrType: string): Promise<void> => {
    await ipam.assignIP({ ip, hostname: host, handleId: tunnelHandleId(type, host), attrs: { node: host, type: attrType }, intendedUse: 'Tunnel' });
  };
  await tunnel('10.0.0.1', NODE_A, 'ipip', 'ipipTunnelAddress');
  await tunnel('10.0.0.2', NODE_A, 'vxlan', 'vxlanTunnelAddress');
  await tunnel('fd00::1', NODE_A, 'wireguard-v6', 'wireguardV6TunnelAddress');
  await tunnel('10.0.0.65', NODE_B, 'ipip', 'ipipTunnelAddress');
  await tunnel('fd00::41', NODE_B, 'vxlan-v6', 'vxlanV6TunnelAddress');
  await ipam.assignIP({
    ip: '10.0.0.3',
    hostname: NODE_A,
    handleId: POD_HANDLE,
    attrs: { namespace: 'default', pod: 'web-1', node: NODE_A, timestamp: TIMESTAMP },
    intendedUse: 'Workload',
  });
  await ipam.assignIP({
    ip: '10.0.0.66',
    hostname: NODE_B,
    handleId: VM_HANDLE,
    attrs: { namespace: 'vms', vmi: 'vm-1', node: NODE_B, timestamp: TIMESTAMP },
    intendedUse: 'Workload',
  });
  await ipam.assignIP({
    ip: '10.2.0.1',
    hostname: 'load-balancer',
    handleId: LB_HANDLE,
    attrs: { service: 'lb-1', namespace: 'default', type: 'LoadBalancer', timestamp: TIMESTAMP },
    intendedUse: 'LoadBalancer',
  });
  await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, kubeVirtVMAddressPersistence: 'Disabled', ipCooldownSeconds: 30 });
}

const byString = <T>(key: (x: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Everything migrate moves, in a backend-independent order. */
export async function snapshot(ds: Datastore): Promise<MigrationContents> {
  const c = await readMigrationContents(ds);
  return {
    ipPools: [...c.ipPools].sort(byString((p) => p.name)),
    ipReservations: [...c.ipReservations].sort(byString((r) => r.name)),
    nodes: [...c.nodes].sort(byString((n) => n.name)),
    affinities: [...c.affinities].sort(byString((a) => `${a.type}/${a.host}/${a.cidr}`)),
    blocks: [...c.blocks].sort(byString((b) => b.cidr)),
    handles: [...c.handles].sort(byString((h) => h.handleId)),
    ...(c.config === undefined ? {} : { config: c.config }),
  };
}
