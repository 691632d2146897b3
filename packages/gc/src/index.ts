// The public API of @ipamkit/gc: the IPAM garbage collector (design/gc.md).
export { GcController, type GcControllerOptions } from './controller/gc-controller.js';
export { RetryController } from './controller/retry-controller.js';
export type {
  ClusterView,
  ClusterNode,
  ClusterViewListener,
  KubeVirtView,
  PodProjection,
  ServiceView,
  VmiProjection,
} from './cluster-view/cluster-view.js';
export { MemoryClusterView, type DeleteOptions } from './cluster-view/memory-cluster-view.js';
export { GcState, type BlockSummary } from './state/gc-state.js';
export { Allocation, allocationId } from './state/allocation.js';
export { PoolManager } from './state/pool-manager.js';
export { assertConsistentState, type ConsistencyOptions } from './state/assert-consistent-state.js';
export { GcMetrics } from './metrics/gc-metrics.js';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from '@ipamkit/kube-runtime';
export { syncIPAM, type SyncResult } from './sync/sync-ipam.js';
export type { GcSettings, SyncDeps } from './sync/sync-deps.js';
export {
  isAllocationValid,
  isAllocationValidCached,
  isVMAllocationValid,
  isLoadBalancerAllocationValid,
  podAccountsFor,
} from './validity/allocation-validity.js';
export { kubernetesNameOf, sameNameResolver, datastoreNodeResolver, type NodeResolver, type NodeResolution } from './nodes/node-resolver.js';
export { deleteStaleCalicoNodes } from './nodes/node-deleter.js';
export { type Logger, silentLogger, stderrLogger } from '@ipamkit/kube-runtime';
export { GcConfigError, GcInconsistentStateError, GcWorkRemainingError, UnexpectedReleaseError } from './errors.js';
export * from './constants.js';
export { gcDatastoreConfig } from './datastore-config.js';
