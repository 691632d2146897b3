// The Kubernetes side of @ipamkit/kube-runtime: the only module tree in the package that imports the client.
export { Reflector, type ReflectorOptions, type ListPage } from './reflector.js';
export { LeaseLeaderElector, type LeaseLeaderElectorOptions } from './lease-leader-elector.js';
export { loadKubeConfig } from './kube-config.js';
