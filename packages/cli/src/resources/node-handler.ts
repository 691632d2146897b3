import { parseCidrWithAddress, type Node } from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';
import type { ResourceHandler } from './resource-handler.js';
import { decodeNodeDocument, encodeNodeDocument } from './v3-documents.js';

function addressProblem(field: string, value: string | undefined, version: 4 | 6): ErroredField[] {
  if (value === undefined || value === '') return [];
  try {
    if (parseCidrWithAddress(value).version === version) return [];
  } catch {
    // reported below
  }
  return [{ name: field, value, reason: `must be an IPv${version} address with a prefix length` }];
}

function asnOf(node: Node): string {
  const bgp = node.unknownFields?.spec?.bgp;
  const asn = typeof bgp === 'object' && bgp !== null ? (bgp as Record<string, unknown>).asNumber : undefined;
  return typeof asn === 'number' || typeof asn === 'string' ? String(asn) : '(64512)';
}

/** Calico Nodes (design/cli.md "Resources"); fields the model does not name (orchRefs, asNumber) round-trip. */
export const nodeHandler: ResourceHandler<Node> = {
  kind: 'Node',
  aliases: ['node', 'nodes', 'no'],
  decode: decodeNodeDocument,
  encode: encodeNodeDocument,
  nameOf: (node) => node.name,
  withoutMeta: ({ revision: _revision, uid: _uid, ...node }) => node,
  get: (ds, name) => ds.nodes.get(name),
  list: (ds) => ds.nodes.list(),
  create: (ds, node) => ds.nodes.create(node),
  update: (ds, node) => ds.nodes.update(node),
  delete: (ds, name, revision) => ds.nodes.delete(name, revision),
  validate: (node) =>
    Promise.resolve([
      ...addressProblem('Node.Spec.BGP.IPv4Address', node.bgpIPv4Address, 4),
      ...addressProblem('Node.Spec.BGP.IPv6Address', node.bgpIPv6Address, 6),
    ]),
  header: ['NAME'],
  wideHeader: ['NAME', 'ASN', 'IPV4', 'IPV6'],
  row: (node, wide) => (wide ? [node.name, asnOf(node), node.bgpIPv4Address ?? '', node.bgpIPv6Address ?? ''] : [node.name]),
};
