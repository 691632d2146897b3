// The public API of @ipamkit/models, named one export at a time (design/models.md, "Public surface").
// Internals stay reachable by path for this package's tests; packages/models/api/models.api.md records the surface.
export { decodeCrd, decodeV1, decodeV3, encodeCrd, encodeV1, encodeV3 } from './codecs/crd-codec.js';
export { decodeEtcd, encodeEtcd } from './codecs/etcd-codec.js';
export {
  ETCD_HANDLE_PREFIX,
  ETCD_IPAM_ROOT,
  ETCD_IPPOOL_PREFIX,
  ETCD_IPRESERVATION_PREFIX,
  ETCD_NODE_PREFIX,
  etcdAffinityPrefixes,
  etcdBlockPrefix,
  etcdKeyForAffinity,
  etcdKeyForBlock,
  etcdKeyForHandle,
  etcdKeyForIPAMConfig,
  etcdKeyForIPPool,
  etcdKeyForIPReservation,
  etcdKeyForNode,
  type EtcdKeyTarget,
  parseEtcdKey,
} from './codecs/etcd-keys.js';
export { type CrdGroup, type KubeObject, type WireMeta } from './codecs/kube-object.js';
export {
  decodeKubernetesNamespace,
  decodeKubernetesNode,
  KUBERNETES_NODE_ANNOTATIONS,
  kubernetesNodeTunnelAnnotations,
} from './codecs/kubernetes-node-codec.js';
export { decodeEtcdNode, decodeV3Node, encodeEtcdNode, encodeV3Node } from './codecs/node-codec.js';
export { parseWireJson } from './codecs/wire-json-parse.js';
export { stringifyWireJson } from './codecs/wire-json-stringify.js';
export {
  type DecodedModel,
  type EtcdEntry,
  type Model,
  type WireKind,
  type WireModel,
  type WireModels,
} from './codecs/wire-kind.js';
export {
  type AffinityListOptions,
  type AffinityStore,
  type BlockListOptions,
  type BlockOrdinals,
  type BlockOrdinalsPage,
  type BlockPage,
  type BlockPageOptions,
  type BlockStore,
  type Datastore,
  type DatastoreKind,
  type DatastoreTx,
  type HandleStore,
  type IpamConfigStore,
  type ResourceStore,
  type StampTarget,
  type TransactOptions,
  type TxStamps,
  type TxWrite,
  type Versioned,
  type Watchable,
  type WatchEvent,
  type WatchOptions,
} from './datastore.js';
export {
  AlreadyExistsError,
  BadHandleError,
  BadSequenceNumberError,
  BlockLimitError,
  BlockNotEmptyError,
  CodecError,
  ConflictError,
  DatastoreUnavailableError,
  type ErrorCategory,
  IPAMConfigConflictError,
  IpamError,
  IPInCooldownError,
  isTransient,
  MaxAllocReachedError,
  NoQualifiedPoolError,
  NotFoundError,
  orUndefined,
  SelectorParseError,
  StrictAffinityError,
  UnauthorizedError,
  UseRequiredError,
  ValidationError,
  WatchExpiredError,
} from './errors.js';
export {
  cniHandleId,
  cniWorkloadId,
  isCniHandleOfNetwork,
  isLoadBalancerHandleId,
  kubernetesHandleName,
  loadBalancerHandleId,
  parseTunnelHandleId,
  renameTunnelHandleNode,
  sanitizeHandleId,
  TUNNEL_ATTRIBUTE_TYPES,
  TUNNEL_HANDLE_PREFIXES,
  TUNNEL_TYPES,
  tunnelHandleId,
  type TunnelType,
  vmHandleId,
  WINDOWS_RESERVED_HANDLE,
} from './handles/handle-ids.js';
export {
  addressToBigInt,
  canonicalAddress,
  ipVersionOfAddress,
  isIPv4,
  isIPv6,
  parseAddress,
  type ParsedAddress,
} from './net/address.js';
export { AFFINITY_HOSTNAME_HASH_LABEL, AFFINITY_IP_VERSION_LABEL, AFFINITY_TYPE_LABEL } from './net/affinity-labels.js';
export { blockAffinityName } from './net/block-affinity-name.js';
export { blockAt, blockCountOf, blocksOf } from './net/blocks-of.js';
export { cidrToName } from './net/cidr-to-name.js';
export {
  canonicalCidr,
  cidrContains,
  cidrSize,
  cidrsOverlap,
  formatCidr,
  ipVersionOfCidr,
  parseAddressOrCidr,
  parseCidr,
  parseCidrWithAddress,
  type ParsedCidr,
  type ParsedCidrWithAddress,
} from './net/cidr.js';
export { formatAddress } from './net/format-address.js';
export { hostnameHashLabel } from './net/hostname-hash-label.js';
export { bitsOf } from './net/ip-version-bits.js';
export { addressAt, blockCidrFor } from './net/ordinal.js';
export {
  type AffinityType,
  type AllocationAttribute,
  type AllocationBlock,
  type BlockOwner,
} from './resources/allocation-block.js';
export { type AffinityKey, type AffinityState, type BlockAffinity } from './resources/block-affinity.js';
export { type IntendedUse, type IPVersion } from './resources/intended-use.js';
export {
  type AssignmentMode,
  type EncapsulationMode,
  type IPPool,
  type PoolCondition,
  type WireUnknownFields,
} from './resources/ip-pool.js';
export { type IPReservation } from './resources/ip-reservation.js';
export { type IPAMConfig, type KubeVirtVMAddressPersistence } from './resources/ipam-config.js';
export { type IPAMHandle } from './resources/ipam-handle.js';
export { type Namespace } from './resources/namespace.js';
export { type Node, NODE_TUNNEL_FIELDS, type NodeTunnelAddresses } from './resources/node.js';
export { parseSelector, type Selector } from './selector/parse-selector.js';
export { applyIPPoolDefaults, type DefaultedIPPool } from './validation/ip-pool-defaults.js';
export { IPAMConfigValidationError, IPPoolValidationError } from './validation/ip-pool-validation-error.js';
export { DEFAULT_IPAM_CONFIG, DEFAULT_MAX_BLOCKS_PER_HOST } from './validation/ipam-config-defaults.js';
export { isPoolEnabled, selectsEveryNode, selectsNamespace, selectsNode } from './validation/pool-selection.js';
export { ipPoolProblems, validateIPPool } from './validation/validate-ip-pool.js';
export { validateIPAMConfig } from './validation/validate-ipam-config.js';
export { type Backoff, backoffDelay } from './retry/backoff.js';
export { retry, type RetryPolicy } from './retry/retry.js';
export { type Alarm, armAlarm } from './retry/alarm.js';
export { sleep } from './retry/sleep.js';
export { jsonLineLogger, type LogFields, type Logger, silentLogger } from './logger.js';
export { type Clock, systemClock } from './clock.js';
export { isoUtc } from './iso-utc.js';
export { isWhiteSpaceCode } from './white-space-code.js';
export { type DefinedFields, definedFields } from './defined-fields.js';
export { isRecord } from './is-record.js';
export { type FlagSpec, type FlagValues, type InvalidFlag, numberFlag, parseFlags, type ScannedArg, scanFlags, stringFlag } from './bin/flags.js';
export { type BinIo, type BinMain, runBin, type RunBinOptions } from './bin/run-bin.js';
export { seededRandom } from './seeded-random.js';
