import { canonicalAddress, NODE_TUNNEL_FIELDS, type Node, type NodeTunnelAddresses } from '@ipamkit/models';
import { isFinishedPod, type ClusterState } from './cluster-state.js';

/** `10.0.0.1/32` or `10.0.0.1` → canonical address; undefined for anything unparsable. */
function addressOfField(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return canonicalAddress(value.trim().split('/')[0] ?? '');
  } catch {
    return undefined;
  }
}

/**
 * Who uses each address (design/calico-callers.md#ipam-check steps 4–6): node tunnel fields (IPv6 ones too),
 * LoadBalancer ingress IPs and the IPs of pods that have not finished.
 */
export function inUseOwners(nodes: readonly Node[], cluster: ClusterState): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  const add = (ip: string | undefined, owner: string): void => {
    if (ip === undefined) return;
    const list = owners.get(ip) ?? [];
    if (!list.includes(owner)) list.push(owner);
    owners.set(ip, list);
  };
  for (const node of nodes) {
    const tunnels: NodeTunnelAddresses = node.tunnelAddresses ?? {};
    for (const field of NODE_TUNNEL_FIELDS) add(addressOfField(tunnels[field]), `Node(${node.name})`);
  }
  for (const service of cluster.services ?? []) {
    for (const ip of service.ingressIPs ?? []) add(addressOfField(ip), `Service(${service.namespace}/${service.name})`);
  }
  for (const pod of cluster.pods ?? []) {
    if (isFinishedPod(pod)) continue;
    for (const ip of pod.ips ?? []) add(addressOfField(ip), `Workload(${pod.namespace}/${pod.name})`);
  }
  return owners;
}
