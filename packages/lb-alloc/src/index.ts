// The public API of @ipamkit/lb-alloc (design/lb-alloc.md, "Public surface"): the controller, the cluster
// view it reads (and an in-memory one), its datastore settings and its errors. The informer-backed view is
// the `@ipamkit/lb-alloc/kubernetes` subpath, so importing this entry never loads the Kubernetes client.
export { type LbClusterView, type LbClusterViewListener } from './cluster-view/lb-cluster-view.js';
export { MemoryLbClusterView, type MemoryServiceInput } from './cluster-view/memory-lb-cluster-view.js';
export { LbController, type LbControllerOptions } from './controller/lb-controller.js';
export { LbConfigError, ServiceAnnotationError } from './errors.js';
export { type IPFamily, type LbService, type ServiceKey } from './service/lb-service.js';
