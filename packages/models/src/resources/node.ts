import type { WireUnknownFields } from './ip-pool.js';

/** The tunnel-address fields of a Calico Node (design/calico-callers.md#node-tunnel-fields). */
export interface NodeTunnelAddresses {
  ipv4IPIPTunnelAddr?: string;
  ipv4VXLANTunnelAddr?: string;
  ipv6VXLANTunnelAddr?: string;
  wireguardInterfaceIPv4Address?: string;
  wireguardInterfaceIPv6Address?: string;
}

/** Every tunnel address field of a Node, in the order the codecs and callers walk them. */
export const NODE_TUNNEL_FIELDS = [
  'ipv4IPIPTunnelAddr',
  'ipv4VXLANTunnelAddr',
  'ipv6VXLANTunnelAddr',
  'wireguardInterfaceIPv4Address',
  'wireguardInterfaceIPv6Address',
] as const satisfies readonly (keyof NodeTunnelAddresses)[];

/** A Calico Node, as IPAM and the tunnel allocator need it. */
export interface Node {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** `spec.bgp.ipv4Address` / `ipv6Address`, with prefix length. */
  bgpIPv4Address?: string;
  bgpIPv6Address?: string;
  tunnelAddresses?: NodeTunnelAddresses;
  /** `status.wireguardPublicKey` / `wireguardPublicKeyV6`, written by Felix. */
  wireguardPublicKey?: string;
  wireguardPublicKeyV6?: string;
  /** Kubernetes `spec.podCIDR(s)` when the node came from a Kubernetes Node. */
  podCIDRs?: string[];
  /** Wire fields of a Calico Node this model does not name, kept by the codecs (etcd Node JSON). */
  unknownFields?: WireUnknownFields;
}
