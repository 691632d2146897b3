// `@ipamkit/ipam-datastore/kubernetes`: Calico's Kubernetes datastore (design/calico-stored-formats.md).
export { createKubernetesDatastore } from './kubernetes-datastore.js';
export type { KubernetesDatastoreConfig, KubernetesApiGroup } from './kubernetes-datastore.js';
// For callers that speak to the API server themselves (the CNI's pod reader): client-node, lazily.
export { clientNodeAccessForFile } from './client-node-access.js';
