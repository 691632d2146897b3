import { NODE_TUNNEL_FIELDS, type Node, type NodeTunnelAddresses } from '@ipamkit/models';
import type { TunnelKind } from './tunnel-kinds.js';

/** The Node's address for `kind`, or '' when none is recorded. */
export function tunnelAddressOf(node: Node, kind: TunnelKind): string {
  return node.tunnelAddresses?.[kind.nodeField] ?? '';
}

/**
 * A copy of `node` with `kind`'s address set (or cleared with ''). An emptied `tunnelAddresses`
 * is dropped so the codecs leave out an empty `spec.bgp` / `spec.wireguard` (the API rejects them).
 */
export function withTunnelAddress<N extends Node>(node: N, kind: TunnelKind, address: string): N {
  const tunnels: NodeTunnelAddresses = { ...(node.tunnelAddresses ?? {}) };
  if (address === '') Reflect.deleteProperty(tunnels, kind.nodeField);
  else tunnels[kind.nodeField] = address;
  const { tunnelAddresses: _old, ...rest } = node;
  return (Object.keys(tunnels).length === 0 ? rest : { ...rest, tunnelAddresses: tunnels }) as N;
}

/** True when both Nodes record the same tunnel addresses (the only fields the allocator writes). */
export function sameTunnelAddresses(a: Node, b: Node): boolean {
  return NODE_TUNNEL_FIELDS.every((field) => (a.tunnelAddresses?.[field] ?? '') === (b.tunnelAddresses?.[field] ?? ''));
}

/** Copies `from`'s tunnel addresses onto `onto` (used to re-apply a reconcile's result to a re-read Node). */
export function copyTunnelAddresses<N extends Node>(onto: N, from: Node): N {
  const { tunnelAddresses: _old, ...rest } = onto;
  return (from.tunnelAddresses === undefined ? rest : { ...rest, tunnelAddresses: { ...from.tunnelAddresses } }) as N;
}
