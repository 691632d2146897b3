// `@ipamkit/ipam-datastore/kubernetes`: Calico's Kubernetes datastore (design/calico-stored-formats.md).
export { createKubernetesDatastore } from './kubernetes-datastore.js';
export type { KubernetesDatastoreConfig, KubernetesApiGroup } from './kubernetes-datastore.js';
export { translateUid } from './uid-translation.js';
export { affinitySelector } from './affinity-store.js';
// For callers that speak to the API server themselves (the CNI's pod reader): client-node, lazily.
export { kubeAccessFor } from './kube-access-for.js';
export { clientNodeAccessForFile } from './client-node-access.js';
