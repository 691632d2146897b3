import { createHash } from 'node:crypto';
import { lengthLimitedId } from './length-limited-id.js';

/**
 * Every handle ID format ipamkit writes, built in one place (review rubric 6). Formats are Calico's
 * (design/calico-ipam.md#handle-ids; design/calico-callers.md#loadbalancer-handle) so handles written by either stay recognisable.
 */

export const DEFAULT_NETWORK_NAME = 'k8s-pod-network';

/** Host-reserved (Windows) ordinals; no IPAMHandle object exists for it. */
export const WINDOWS_RESERVED_HANDLE = 'windows-reserved-ipam-handle';

export type TunnelType = 'ipip' | 'vxlan' | 'vxlan-v6' | 'wireguard' | 'wireguard-v6';

export const TUNNEL_TYPES: readonly TunnelType[] = ['ipip', 'vxlan', 'vxlan-v6', 'wireguard', 'wireguard-v6'];

/** The allocation attribute `type` written for each tunnel type. */
export const TUNNEL_ATTRIBUTE_TYPES: Readonly<Record<TunnelType, string>> = {
  ipip: 'ipipTunnelAddress',
  vxlan: 'vxlanTunnelAddress',
  'vxlan-v6': 'vxlanV6TunnelAddress',
  wireguard: 'wireguardTunnelAddress',
  'wireguard-v6': 'wireguardV6TunnelAddress',
};

/** The handle prefix of each tunnel type: the handle is `<prefix><node>`. */
export const TUNNEL_HANDLE_PREFIXES: Readonly<Record<TunnelType, string>> = {
  ipip: 'ipip-tunnel-addr-',
  vxlan: 'vxlan-tunnel-addr-',
  'vxlan-v6': 'vxlan-v6-tunnel-addr-',
  wireguard: 'wireguard-tunnel-addr-',
  'wireguard-v6': 'wireguard-v6-tunnel-addr-',
};

export function tunnelHandleId(type: TunnelType, node: string): string {
  return TUNNEL_HANDLE_PREFIXES[type] + node;
}

/** Recognises a tunnel handle; longer prefixes first so `vxlan-v6-` is not read as `vxlan-`. */
export function parseTunnelHandleId(handleId: string): { type: TunnelType; node: string } | undefined {
  const byLength = [...TUNNEL_TYPES].sort((a, b) => TUNNEL_HANDLE_PREFIXES[b].length - TUNNEL_HANDLE_PREFIXES[a].length);
  for (const type of byLength) {
    const prefix = TUNNEL_HANDLE_PREFIXES[type];
    if (handleId.startsWith(prefix) && handleId.length > prefix.length) {
      return { type, node: handleId.slice(prefix.length) };
    }
  }
  return undefined;
}

/** The CNI handle of a pod's attachment: `<network>.<containerID>`. */
export function cniHandleId(networkName: string, containerId: string): string {
  return `${networkName === '' ? DEFAULT_NETWORK_NAME : networkName}.${containerId}`;
}

/** The workload ID CNI DEL also releases (allocations made by very old plugins): `<namespace>.<pod>`. */
export function cniWorkloadId(namespace: string, pod: string): string {
  return `${namespace}.${pod}`;
}

/** True when `handleId` belongs to the CNI network `networkName`. */
export function isCniHandleOfNetwork(handleId: string, networkName: string): boolean {
  return handleId.startsWith(`${networkName}.`) && !handleId.startsWith(`${networkName}.vmi.`);
}

export const VM_HANDLE_MAX_LENGTH = 128;

/** KubeVirt persistent-VM handle: `<network>.vmi.<namespace>.<vm>`, length-limited to 128. */
export function vmHandleId(networkName: string, namespace: string, vmName: string): string {
  const prefix = `${networkName === '' ? DEFAULT_NETWORK_NAME : networkName}.vmi.`;
  return lengthLimitedId(prefix, `${namespace}.${vmName}`, VM_HANDLE_MAX_LENGTH);
}

export const LOAD_BALANCER_HANDLE_PREFIX = 'lb-';
const MAX_LB_HANDLE_LENGTH = 253;

/** A LoadBalancer Service's handle: `lb-` + base64url(SHA-256(lower(name-namespace-uid))) without `-_.`. */
export function loadBalancerHandleId(service: { name: string; namespace: string; uid: string }): string {
  const raw = `${service.name}-${service.namespace}-${service.uid}`.toLowerCase();
  const encoded = createHash('sha256').update(raw, 'utf8').digest('base64url').replace(/[-_.]/g, '');
  return (LOAD_BALANCER_HANDLE_PREFIX + encoded).slice(0, MAX_LB_HANDLE_LENGTH);
}

export function isLoadBalancerHandleId(handleId: string): boolean {
  return handleId.startsWith(LOAD_BALANCER_HANDLE_PREFIX);
}

/** Old host-local migrations left `\r…` tails on handles; readers cut there. */
export function sanitizeHandleId(handleId: string): string {
  const cut = handleId.indexOf('\r');
  return cut === -1 ? handleId : handleId.slice(0, cut);
}

/**
 * The ID a tunnel handle gets when its node is renamed (datastore migration, design/calico-callers.md#ipam-rewriting): every
 * tunnel type, IPv6 included. Any other handle, or a tunnel handle of a node `rename` does not map
 * (returns undefined for), is returned unchanged.
 */
export function renameTunnelHandleNode(handleId: string, rename: (node: string) => string | undefined): string {
  const tunnel = parseTunnelHandleId(handleId);
  if (tunnel === undefined) return handleId;
  const renamed = rename(tunnel.node);
  return renamed === undefined ? handleId : tunnelHandleId(tunnel.type, renamed);
}

/** The Kubernetes object name of an IPAMHandle: the ID lower-cased (`spec.handleID` keeps the case). */
export function kubernetesHandleName(handleId: string): string {
  return handleId.toLowerCase();
}
