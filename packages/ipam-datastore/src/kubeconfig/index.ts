// `@ipamkit/ipam-datastore/kubeconfig`: the small kubeconfig loader shared by the Kubernetes
// datastore and the CNI's pod reader. It loads no Kubernetes client and no YAML library
// (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading").
export { findKubeconfig, inClusterConnection, loadKubeconfig, SERVICE_ACCOUNT_DIR } from './load-kubeconfig.js';
export type { KubeconfigSources } from './load-kubeconfig.js';
export { readKubeconfigFile } from './read-kubeconfig-file.js';
export { displayServer } from './kube-connection.js';
export type { KubeConnection, KubeconfigLoad } from './kube-connection.js';
export { connectionAccess } from './kube-access.js';
export type { DirectKubeAccess, KubeAccess } from './kube-access.js';
export { KubeconfigError } from './kubeconfig-error.js';
export { parseMiniYaml, MiniYamlError } from './mini-yaml.js';
export type { YamlValue } from './mini-yaml.js';
