/** Constants of the garbage collector (design/calico-callers.md#gc-constants), in milliseconds where they are durations. */

/** Calico's default `LeakGracePeriod` (KubeControllersConfiguration). */
export const DEFAULT_LEAK_GRACE_PERIOD_MS = 15 * 60_000;
/** Sync period when the grace period is unset or zero. */
export const DEFAULT_SYNC_PERIOD_MS = 5 * 60_000;
/** The floor of a KubeVirt VM allocation's grace period. */
export const VM_RECREATION_GRACE_PERIOD_MS = 5 * 60_000;
/** Addresses released per pass at most; the rest roll over to the next pass. */
export const MAX_RELEASES_PER_PASS = 10_000;
/** Batching of input events (`utils.ProcessBatch`). */
export const BATCH_UPDATE_SIZE = 1000;
export const BATCH_WAIT_MS = 1000;
/** Retry backoff: exponential 5 ms → 30 s, max'd with a 10/s bucket of burst 100. */
export const RETRY_BASE_MS = 5;
export const RETRY_MAX_MS = 30_000;
export const RETRY_BUCKET_RATE_PER_S = 10;
export const RETRY_BUCKET_BURST = 100;
/** Steps slower than this are logged. */
export const SLOW_STEP_MS = 5000;
/** Metric labels. */
export const UNKNOWN_NODE_LABEL = 'unknown_node';
export const UNKNOWN_POOL_LABEL = 'no_ippool';
export const NO_AFFINITY_LABEL = 'no_affinity';
/** Calico's Prometheus port for kube-controllers. */
export const DEFAULT_METRICS_PORT = 9094;
/** Allocation attribute keys the GC reads. */
export const ATTR_NODE = 'node';
export const ATTR_POD = 'pod';
export const ATTR_NAMESPACE = 'namespace';
export const ATTR_TYPE = 'type';
export const ATTR_VMI_NAME = 'vmi-name';
export const ATTR_SERVICE = 'service';
/** Evicted pods: phase Failed with this reason (live reads only). */
export const EVICTED_REASON = 'Evicted';
export const VM_OWNER_KIND = 'VirtualMachine';
/** A node whose label has any other value is mid-migration from Flannel; its blocks are held. */
export const FLANNEL_MIGRATION_LABEL = 'projectcalico.org/node-network-during-migration';
export const KUBERNETES_ORCHESTRATOR = 'k8s';
/** KubeVirt detection poll. */
export const KUBEVIRT_POLL_MS = 30_000;
