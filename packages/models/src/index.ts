// The public API of @ipamkit/models (spec/api.md).
export type { IntendedUse, IPVersion } from './resources/intended-use.js';
export { INTENDED_USES } from './resources/intended-use.js';
export type { IPPool, PoolCondition, EncapsulationMode, AssignmentMode } from './resources/ip-pool.js';
export type { IPReservation } from './resources/ip-reservation.js';
export type { IPAMConfig, KubeVirtVMAddressPersistence } from './resources/ipam-config.js';
export type { AllocationBlock, AllocationAttribute, AffinityType, BlockOwner } from './resources/allocation-block.js';
export type { BlockAffinity, AffinityKey, AffinityState } from './resources/block-affinity.js';
export type { IPAMHandle } from './resources/ipam-handle.js';
export type { Node, NodeTunnelAddresses } from './resources/node.js';
export type { Namespace } from './resources/namespace.js';
export type {
  Versioned,
  WatchEvent,
  WatchOptions,
  Watchable,
  ResourceStore,
  BlockListOptions,
  BlockStore,
  AffinityListOptions,
  AffinityStore,
  HandleStore,
  IpamConfigStore,
  TxWrite,
  DatastoreTx,
  DatastoreKind,
  Datastore,
} from './datastore.js';
export * from './errors.js';
export * from './codecs/index.js';
export * from './net/index.js';
export * from './selector/index.js';
export * from './validation/index.js';
export * from './handles/index.js';
export { type Backoff, backoffDelay } from './retry/backoff.js';
export { retry, type RetryPolicy } from './retry/retry.js';
export { sleep } from './retry/sleep.js';
export { jsonLineLogger, type LogFields, type Logger, silentLogger } from './logger.js';
export { type Clock, systemClock } from './clock.js';
