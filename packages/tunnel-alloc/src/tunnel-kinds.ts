import {
  type IPVersion,
  type NodeTunnelAddresses,
  TUNNEL_ATTRIBUTE_TYPES,
  type TunnelType,
  tunnelHandleId,
} from '@ipamkit/models';

/** Everything the allocator needs to know about one tunnel type (design/calico-callers.md#tunnel-address-allocator). */
export interface TunnelKind {
  readonly type: TunnelType;
  readonly version: IPVersion;
  /** Where the address lives on the Node model (the datastore maps it to spec fields or annotations). */
  readonly nodeField: keyof NodeTunnelAddresses;
  /** The allocation's `type` attribute; the source of truth is `TUNNEL_ATTRIBUTE_TYPES` in models. */
  readonly attributeType: string;
  /** The pool field that must be Always/CrossSubnet; absent for WireGuard (any encapsulation). */
  readonly encapsulation?: 'ipipMode' | 'vxlanMode';
  readonly wireguard: boolean;
}

export const TUNNEL_KINDS: Readonly<Record<TunnelType, TunnelKind>> = {
  wireguard: {
    type: 'wireguard',
    version: 4,
    nodeField: 'wireguardInterfaceIPv4Address',
    attributeType: TUNNEL_ATTRIBUTE_TYPES.wireguard,
    wireguard: true,
  },
  'wireguard-v6': {
    type: 'wireguard-v6',
    version: 6,
    nodeField: 'wireguardInterfaceIPv6Address',
    attributeType: TUNNEL_ATTRIBUTE_TYPES['wireguard-v6'],
    wireguard: true,
  },
  ipip: {
    type: 'ipip',
    version: 4,
    nodeField: 'ipv4IPIPTunnelAddr',
    attributeType: TUNNEL_ATTRIBUTE_TYPES.ipip,
    encapsulation: 'ipipMode',
    wireguard: false,
  },
  vxlan: {
    type: 'vxlan',
    version: 4,
    nodeField: 'ipv4VXLANTunnelAddr',
    attributeType: TUNNEL_ATTRIBUTE_TYPES.vxlan,
    encapsulation: 'vxlanMode',
    wireguard: false,
  },
  'vxlan-v6': {
    type: 'vxlan-v6',
    version: 6,
    nodeField: 'ipv6VXLANTunnelAddr',
    attributeType: TUNNEL_ATTRIBUTE_TYPES['vxlan-v6'],
    encapsulation: 'vxlanMode',
    wireguard: false,
  },
};

/** Calico's fixed processing order inside one reconcile (design/calico-callers.md#tunnel-kinds). */
export const RECONCILE_ORDER: readonly TunnelType[] = ['wireguard', 'wireguard-v6', 'ipip', 'vxlan', 'vxlan-v6'];

/** The allocation attributes written on every tunnel address (no pod, namespace or timestamp). */
export function tunnelAttributes(kind: TunnelKind, nodeName: string): Record<string, string> {
  return { node: nodeName, type: kind.attributeType };
}

/** The handle of `kind` on `nodeName`, built by the one handle-ID module in models. */
export function tunnelHandleOf(kind: TunnelKind, nodeName: string): string {
  return tunnelHandleId(kind.type, nodeName);
}
