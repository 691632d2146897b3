// The public surface of @ipamkit/test-utils (private): test harnesses shared across packages.
export * from './contract/index.js';
export * from './etcd/index.js';
export * from './kube-api-server/index.js';
export * from './controller-process/index.js';
export * from './missing-package/index.js';
