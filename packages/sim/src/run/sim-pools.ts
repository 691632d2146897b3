import type { IPPool } from '@ipamkit/models';

/** Node label that puts a node in the node-selected pool's zone. */
export const ZONE_LABEL = 'zone';

/**
 * The simulated cluster's pools: v4 per zone (one of them node-selected), v6 for every node, and a
 * LoadBalancer-only pool. IPIP on the v4 pools gives every node a tunnel address.
 */
export const SIM_POOLS: readonly IPPool[] = [
  { name: 'pods-v4', cidr: '10.244.0.0/16', blockSize: 26, nodeSelector: `${ZONE_LABEL} == 'a'`, ipipMode: 'Always', natOutgoing: true },
  { name: 'pods-v4-zone-b', cidr: '10.245.0.0/19', blockSize: 26, nodeSelector: `${ZONE_LABEL} == 'b'`, ipipMode: 'Always', natOutgoing: true },
  { name: 'pods-v6', cidr: 'fd00:10:244::/112', blockSize: 122 },
  { name: 'load-balancer', cidr: '10.96.200.0/24', blockSize: 28, allowedUses: ['LoadBalancer'] },
];

/** Every fourth node is in zone b, so the node-selected pool serves a minority of nodes. */
export function zoneOf(index: number): 'a' | 'b' {
  return index % 4 === 3 ? 'b' : 'a';
}
