import type { WireUnknownFields } from '../resources/ip-pool.js';
import type { Node, NodeTunnelAddresses } from '../resources/node.js';
import { CodecError } from '../errors.js';
import { etcdKeyForNode, parseEtcdKey } from './etcd-keys.js';
import { type JsonObject, codecFail, optObject, optString, optStringMap, putDefined, unknownEntries } from './field-readers.js';
import { API_VERSION, type WireMeta, readKubeObject, readName } from './kube-object.js';
import { parseWireJson } from './wire-json-parse.js';
import { stringifyWireJson } from './wire-json-stringify.js';

const SPEC_FIELDS = ['bgp', 'ipv4VXLANTunnelAddr', 'ipv6VXLANTunnelAddr', 'wireguard'];
const BGP_FIELDS = ['ipv4Address', 'ipv6Address', 'ipv4IPIPTunnelAddr'];
const WIREGUARD_FIELDS = ['interfaceIPv4Address', 'interfaceIPv6Address'];
const STATUS_FIELDS = ['wireguardPublicKey', 'wireguardPublicKeyV6'];
const METADATA_FIELDS = ['name', 'resourceVersion', 'uid', 'labels', 'annotations'];

/**
 * A `projectcalico.org/v3` Node (the JSON etcd stores under `/calico/resources/v3/...`). Fields the
 * model does not name round-trip through `unknownFields`; unknown keys inside `spec.bgp` and
 * `spec.wireguard` are kept under `unknownFields.spec.bgp` / `.wireguard`.
 */
export function decodeV3Node(value: unknown): Node & WireMeta {
  const { root, metadata, spec, meta, labels } = readKubeObject(value, 'v3', ['Node']);
  const node: Node & WireMeta = { name: readName(metadata), ...meta };
  putDefined(node, 'labels', labels);
  putDefined(node, 'annotations', optStringMap(metadata, 'annotations', 'metadata'));
  const bgp = optObject(spec, 'bgp', 'spec') ?? {};
  putDefined(node, 'bgpIPv4Address', optString(bgp, 'ipv4Address', 'spec.bgp'));
  putDefined(node, 'bgpIPv6Address', optString(bgp, 'ipv6Address', 'spec.bgp'));
  const wireguard = optObject(spec, 'wireguard', 'spec') ?? {};
  const tunnels: NodeTunnelAddresses = {};
  putDefined(tunnels, 'ipv4IPIPTunnelAddr', optString(bgp, 'ipv4IPIPTunnelAddr', 'spec.bgp'));
  putDefined(tunnels, 'ipv4VXLANTunnelAddr', optString(spec, 'ipv4VXLANTunnelAddr', 'spec'));
  putDefined(tunnels, 'ipv6VXLANTunnelAddr', optString(spec, 'ipv6VXLANTunnelAddr', 'spec'));
  putDefined(tunnels, 'wireguardInterfaceIPv4Address', optString(wireguard, 'interfaceIPv4Address', 'spec.wireguard'));
  putDefined(tunnels, 'wireguardInterfaceIPv6Address', optString(wireguard, 'interfaceIPv6Address', 'spec.wireguard'));
  if (Object.keys(tunnels).length > 0) node.tunnelAddresses = tunnels;
  const status = optObject(root, 'status', '$') ?? {};
  putDefined(node, 'wireguardPublicKey', optString(status, 'wireguardPublicKey', 'status'));
  putDefined(node, 'wireguardPublicKeyV6', optString(status, 'wireguardPublicKeyV6', 'status'));
  const unknown: WireUnknownFields = {};
  putDefined(unknown, 'metadata', unknownEntries(metadata, METADATA_FIELDS));
  const specExtra: JsonObject = unknownEntries(spec, SPEC_FIELDS) ?? {};
  putDefined(specExtra, 'bgp', unknownEntries(bgp, BGP_FIELDS));
  putDefined(specExtra, 'wireguard', unknownEntries(wireguard, WIREGUARD_FIELDS));
  if (Object.keys(specExtra).length > 0) unknown.spec = specExtra;
  putDefined(unknown, 'status', unknownEntries(status, STATUS_FIELDS));
  if (Object.keys(unknown).length > 0) node.unknownFields = unknown;
  return node;
}

function extraObject(extra: Record<string, unknown> | undefined, key: string): JsonObject {
  const value = extra?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as JsonObject) } : {};
}

/** Inverse of decodeV3Node. An empty `spec.bgp` / `spec.wireguard` is left out (the API rejects it). */
export function encodeV3Node(node: Node & WireMeta): JsonObject {
  const extra = node.unknownFields ?? {};
  const metadata: JsonObject = { name: node.name, ...(extra.metadata ?? {}) };
  putDefined(metadata, 'resourceVersion', node.revision);
  putDefined(metadata, 'uid', node.uid);
  if (node.labels !== undefined) metadata.labels = { ...node.labels };
  if (node.annotations !== undefined) metadata.annotations = { ...node.annotations };
  const tunnels = node.tunnelAddresses ?? {};
  const bgp: JsonObject = {};
  putDefined(bgp, 'ipv4Address', node.bgpIPv4Address);
  putDefined(bgp, 'ipv6Address', node.bgpIPv6Address);
  putDefined(bgp, 'ipv4IPIPTunnelAddr', tunnels.ipv4IPIPTunnelAddr);
  Object.assign(bgp, extraObject(extra.spec, 'bgp'));
  const wireguard: JsonObject = {};
  putDefined(wireguard, 'interfaceIPv4Address', tunnels.wireguardInterfaceIPv4Address);
  putDefined(wireguard, 'interfaceIPv6Address', tunnels.wireguardInterfaceIPv6Address);
  Object.assign(wireguard, extraObject(extra.spec, 'wireguard'));
  const spec: JsonObject = {};
  if (Object.keys(bgp).length > 0) spec.bgp = bgp;
  putDefined(spec, 'ipv4VXLANTunnelAddr', tunnels.ipv4VXLANTunnelAddr);
  putDefined(spec, 'ipv6VXLANTunnelAddr', tunnels.ipv6VXLANTunnelAddr);
  if (Object.keys(wireguard).length > 0) spec.wireguard = wireguard;
  for (const [key, value] of Object.entries(extra.spec ?? {})) {
    if (!SPEC_FIELDS.includes(key)) spec[key] = value;
  }
  const status: JsonObject = { ...(extra.status ?? {}) };
  putDefined(status, 'wireguardPublicKey', node.wireguardPublicKey);
  putDefined(status, 'wireguardPublicKeyV6', node.wireguardPublicKeyV6);
  const out: JsonObject = { kind: 'Node', apiVersion: API_VERSION.v3, metadata, spec };
  if (Object.keys(status).length > 0) out.status = status;
  return out;
}

/** A Calico Node from etcd; the key's name must match the value's. */
export function decodeEtcdNode(key: string, value: string): Node {
  try {
    const target = parseEtcdKey(key);
    if (target.kind !== 'Node') return codecFail('key', `${JSON.stringify(key)} is not a Node key`);
    const { revision: _revision, ...node } = decodeV3Node(parseWireJson(value));
    if (node.name !== target.name) codecFail('value.metadata.name', `${JSON.stringify(node.name)} does not match the key`);
    return node;
  } catch (err) {
    if (err instanceof CodecError) throw new CodecError(`etcd key ${key}: ${err.message}`, { cause: err });
    throw err;
  }
}

export function encodeEtcdNode(node: Node): { key: string; value: string } {
  const { revision: _revision, ...rest } = node as Node & WireMeta;
  return { key: etcdKeyForNode(node.name), value: stringifyWireJson(encodeV3Node(rest)) };
}
