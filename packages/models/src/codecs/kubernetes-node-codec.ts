import type { Namespace } from '../resources/namespace.js';
import { NODE_TUNNEL_FIELDS, type Node, type NodeTunnelAddresses } from '../resources/node.js';
import { type JsonObject, asObject, codecFail, optArray, optObject, optString, optStringMap, putDefined, reqString } from './field-readers.js';
import type { WireMeta } from './kube-object.js';

/**
 * Annotations on a Kubernetes Node where Calico's KDD mode keeps the Calico Node fields IPAM uses
 * (design/calico-callers.md#node-tunnel-fields).
 */
export const KUBERNETES_NODE_ANNOTATIONS = {
  bgpIPv4Address: 'projectcalico.org/IPv4Address',
  bgpIPv6Address: 'projectcalico.org/IPv6Address',
  ipv4IPIPTunnelAddr: 'projectcalico.org/IPv4IPIPTunnelAddr',
  ipv4VXLANTunnelAddr: 'projectcalico.org/IPv4VXLANTunnelAddr',
  ipv6VXLANTunnelAddr: 'projectcalico.org/IPv6VXLANTunnelAddr',
  wireguardInterfaceIPv4Address: 'projectcalico.org/IPv4WireguardInterfaceAddr',
  wireguardInterfaceIPv6Address: 'projectcalico.org/IPv6WireguardInterfaceAddr',
  wireguardPublicKey: 'projectcalico.org/WireguardPublicKey',
  wireguardPublicKeyV6: 'projectcalico.org/WireguardPublicKeyV6',
} as const;

function readMeta(metadata: JsonObject): WireMeta & { name: string } {
  const name = reqString(metadata, 'name', 'metadata');
  if (name === '') codecFail('metadata.name', 'must not be empty');
  const out: WireMeta & { name: string } = { name };
  const revision = optString(metadata, 'resourceVersion', 'metadata');
  if (revision !== undefined && revision !== '') out.revision = revision;
  const uid = optString(metadata, 'uid', 'metadata');
  if (uid !== undefined && uid !== '') out.uid = uid;
  return out;
}

/** A Kubernetes `v1` Node → the Calico Node view IPAM needs (labels, tunnel and BGP annotations). */
export function decodeKubernetesNode(k8sNode: unknown): Node & WireMeta {
  const obj = asObject(k8sNode, '$');
  const metadata = asObject(obj.metadata, 'metadata');
  const node: Node & WireMeta = readMeta(metadata);
  putDefined(node, 'labels', optStringMap(metadata, 'labels', 'metadata'));
  const annotations = optStringMap(metadata, 'annotations', 'metadata') ?? {};
  if (Object.keys(annotations).length > 0) node.annotations = annotations;
  const read = (key: string): string | undefined => (annotations[key] === '' ? undefined : annotations[key]);
  putDefined(node, 'bgpIPv4Address', read(KUBERNETES_NODE_ANNOTATIONS.bgpIPv4Address));
  putDefined(node, 'bgpIPv6Address', read(KUBERNETES_NODE_ANNOTATIONS.bgpIPv6Address));
  const tunnels: NodeTunnelAddresses = {};
  for (const field of NODE_TUNNEL_FIELDS) putDefined(tunnels, field, read(KUBERNETES_NODE_ANNOTATIONS[field]));
  if (Object.keys(tunnels).length > 0) node.tunnelAddresses = tunnels;
  putDefined(node, 'wireguardPublicKey', read(KUBERNETES_NODE_ANNOTATIONS.wireguardPublicKey));
  putDefined(node, 'wireguardPublicKeyV6', read(KUBERNETES_NODE_ANNOTATIONS.wireguardPublicKeyV6));
  const spec = optObject(obj, 'spec', '$') ?? {};
  const podCIDRs = (optArray(spec, 'podCIDRs', 'spec') ?? []).map((c, i) => {
    if (typeof c !== 'string') codecFail(`spec.podCIDRs[${i}]`, 'expected a string');
    return c;
  });
  const podCIDR = optString(spec, 'podCIDR', 'spec');
  if (podCIDRs.length === 0 && podCIDR !== undefined && podCIDR !== '') podCIDRs.push(podCIDR);
  if (podCIDRs.length > 0) node.podCIDRs = podCIDRs;
  return node;
}

/**
 * The annotation changes that store `tunnels` on a Kubernetes Node: a value to set, or `null` to
 * remove (a JSON merge patch of `metadata.annotations`).
 */
export function kubernetesNodeTunnelAnnotations(tunnels: NodeTunnelAddresses): Record<string, string | null> {
  return Object.fromEntries(NODE_TUNNEL_FIELDS.map((field) => [KUBERNETES_NODE_ANNOTATIONS[field], tunnels[field] ?? null]));
}

/** A Kubernetes Namespace → name and labels (for pool namespace selectors). */
export function decodeKubernetesNamespace(k8sNamespace: unknown): Namespace & WireMeta {
  const obj = asObject(k8sNamespace, '$');
  const metadata = asObject(obj.metadata, 'metadata');
  const namespace: Namespace & WireMeta = readMeta(metadata);
  putDefined(namespace, 'labels', optStringMap(metadata, 'labels', 'metadata'));
  return namespace;
}
