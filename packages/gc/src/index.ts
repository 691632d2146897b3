// The public API of @ipamkit/gc (design/gc.md, "Public surface"): the garbage collector, the cluster view
// it reads (and an in-memory one), its datastore settings and its errors. The informer-backed view is the
// `@ipamkit/gc/kubernetes` subpath.
export {
  type ClusterNode,
  type ClusterView,
  type ClusterViewListener,
  type KubeVirtView,
  type PodProjection,
  type ServiceView,
  type VmiProjection,
} from './cluster-view/cluster-view.js';
export { type DeleteOptions, MemoryClusterView } from './cluster-view/memory-cluster-view.js';
export { GcController, type GcControllerOptions } from './controller/gc-controller.js';
export { GcConfigError, GcInconsistentStateError, GcWorkRemainingError, UnexpectedReleaseError } from './errors.js';
