import {
  decodeKubernetesNamespace,
  decodeKubernetesNode,
  kubernetesNodeTunnelAnnotations,
  type Namespace,
  type Node,
  type Versioned,
} from '@ipamkit/models';
import type { ModelBinding } from './crd-model-store.js';
import { KubeCollection, type RawObject } from './kube-collection.js';
import type { KubeTransport } from './kube-transport.js';

/** Node annotations IPAM owns: the tunnel addresses, set or removed to match the model. */
function nodeAnnotations(node: Node, base: Record<string, string>): Record<string, string> {
  const out = { ...(node.annotations ?? base) };
  for (const [key, value] of Object.entries(kubernetesNodeTunnelAnnotations(node.tunnelAddresses ?? {}))) {
    if (value === null) Reflect.deleteProperty(out, key);
    else out[key] = value;
  }
  return out;
}

function envelope(kind: string, name: string, labels: Record<string, string> | undefined, annotations?: Record<string, string>): RawObject {
  return {
    apiVersion: 'v1',
    kind,
    metadata: {
      name,
      ...(labels === undefined ? {} : { labels: { ...labels } }),
      ...(annotations === undefined || Object.keys(annotations).length === 0 ? {} : { annotations }),
    },
  };
}

/**
 * Calico's Node and Namespace in Kubernetes mode are views of the Kubernetes objects: labels,
 * and for Nodes the `projectcalico.org/*` annotations. `encode` builds a fresh object (create);
 * updates go through `mergeInto` so that the rest of a real Node (spec, status) survives.
 */
export interface CoreBinding<T> extends ModelBinding<T> {
  mergeInto(current: RawObject, model: Versioned<T>): RawObject;
}

/** Nodes and Namespaces are keyed by name and never soft-deleted (Kubernetes deletes them). */
function namedNeverDeleted<T extends { name: string }>(): Pick<ModelBinding<T>, 'softDelete' | 'nameOf' | 'keyOf' | 'isDeleted'> {
  return { softDelete: false, nameOf: (v) => v.name, keyOf: (v) => v.name, isDeleted: () => false };
}

export function nodeBinding(transport: KubeTransport): CoreBinding<Node> {
  return {
    collection: new KubeCollection(transport, { apiVersion: 'v1', plural: 'nodes' }),
    ...namedNeverDeleted<Node>(),
    decode: (raw) => decodeKubernetesNode(raw) as Versioned<Node>,
    encode: (node) => envelope('Node', node.name, node.labels, nodeAnnotations(node, {})),
    mergeInto: (current, node) => {
      const meta = current.metadata ?? {};
      const { labels: _labels, ...rest } = meta;
      return {
        ...current,
        metadata: {
          ...rest,
          ...(node.labels === undefined ? {} : { labels: { ...node.labels } }),
          annotations: nodeAnnotations(node, meta.annotations ?? {}),
          resourceVersion: node.revision,
        },
      };
    },
  };
}

export function namespaceBinding(transport: KubeTransport): CoreBinding<Namespace> {
  return {
    collection: new KubeCollection(transport, { apiVersion: 'v1', plural: 'namespaces' }),
    ...namedNeverDeleted<Namespace>(),
    decode: (raw) => decodeKubernetesNamespace(raw) as Versioned<Namespace>,
    encode: (ns) => envelope('Namespace', ns.name, ns.labels),
    mergeInto: (current, ns) => {
      const { labels: _labels, ...rest } = current.metadata ?? {};
      return { ...current, metadata: { ...rest, ...(ns.labels === undefined ? {} : { labels: { ...ns.labels } }), resourceVersion: ns.revision } };
    },
  };
}
