// Barrel of src/codecs: the wire forms of design/calico-stored-formats.md (v1 CRDs, v3 CRDs, etcdv3) and lossless JSON.
export { parseWireJson } from './wire-json-parse.js';
export { stringifyWireJson } from './wire-json-stringify.js';
export type { WireKind, WireModels, WireModel, Model, DecodedModel, EtcdEntry } from './wire-kind.js';
export { WIRE_KINDS, isWireKind } from './wire-kind.js';
export type { CrdGroup, KubeObject, WireMeta } from './kube-object.js';
export { API_VERSION, CALICO_METADATA_ANNOTATION } from './kube-object.js';
export type { WireUnknownFields } from '../resources/ip-pool.js';
export { decodeV1, encodeV1, decodeV3, encodeV3, decodeCrd, encodeCrd } from './crd-codec.js';
export { decodeEtcd, encodeEtcd } from './etcd-codec.js';
export type { EtcdKeyTarget } from './etcd-keys.js';
export {
  ETCD_IPAM_ROOT,
  ETCD_BLOCK_PREFIX,
  ETCD_HANDLE_PREFIX,
  ETCD_IPAM_CONFIG_KEY,
  ETCD_RESOURCES_ROOT,
  ETCD_IPPOOL_PREFIX,
  ETCD_IPRESERVATION_PREFIX,
  ETCD_NODE_PREFIX,
  etcdKeyForBlock,
  etcdKeyForAffinity,
  etcdKeyForHandle,
  etcdKeyForIPAMHost,
  etcdKeyForIPAMConfig,
  etcdKeyForIPPool,
  etcdKeyForIPReservation,
  etcdKeyForNode,
  etcdBlockPrefix,
  etcdAffinityPrefixes,
  parseEtcdKey,
} from './etcd-keys.js';
export { decodeV3Node, encodeV3Node, decodeEtcdNode, encodeEtcdNode } from './node-codec.js';
export {
  KUBERNETES_NODE_ANNOTATIONS,
  decodeKubernetesNode,
  decodeKubernetesNamespace,
  kubernetesNodeTunnelAnnotations,
} from './kubernetes-node-codec.js';
export { parseBlockOwner, formatBlockOwner } from './block-fields.js';
export { normalizeTimestamp } from './timestamp.js';
