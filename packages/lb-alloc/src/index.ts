// The public API of @ipamkit/lb-alloc (design/lb-alloc.md). The informer-backed cluster view is the
// `@ipamkit/lb-alloc/kubernetes` subpath, so importing this entry never loads the Kubernetes client.
export { LbController, type LbControllerOptions } from './controller/lb-controller.js';
export { AllocationTracker } from './controller/allocation-tracker.js';
export { planReleases, type PlanReleasesArgs } from './controller/plan-releases.js';
export { planAssignment, wantedFamilies, targetCount, needsStatusUpdate, type AssignmentPlan } from './controller/plan-assignment.js';
export { loadLoadBalancerPools, loadTracker, type LoadTrackerResult } from './controller/load-lb-state.js';
export { goTimestamp } from './controller/go-timestamp.js';
export type { LbClusterView, LbClusterViewListener } from './cluster-view/lb-cluster-view.js';
export { MemoryLbClusterView, type MemoryServiceInput } from './cluster-view/memory-lb-cluster-view.js';
export type { LbService, ServiceKey, IPFamily, IPFamilyPolicy } from './service/lb-service.js';
export { serviceKeyString } from './service/lb-service.js';
export { isManagedService, hasCalicoRequest, type AssignIPsMode } from './service/is-managed-service.js';
export { parseServiceAnnotations, type ServiceRequests } from './service/parse-service-annotations.js';
export { LbMetrics, PENDING_REASONS, type PendingReason } from './metrics/lb-metrics.js';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from '@ipamkit/kube-runtime';
export { ServiceAnnotationError, LbConfigError } from './errors.js';
export { type Logger, silentLogger, stderrLogger } from '@ipamkit/kube-runtime';
export * from './constants.js';
export { lbDatastoreConfig } from './datastore-config.js';
