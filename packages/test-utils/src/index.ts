// The surface of @ipamkit/test-utils (private): the test harnesses other packages' tests share,
// named one export at a time (design/test-utils.md).
export { collectEvents, describeEvent } from './contract/collect-events.js';
export { type SoftDeletedRow } from './contract/contract-backend.js';
export { allocateFirst, content, sampleAffinity, sampleBlock, sampleHandle } from './contract/contract-fixtures.js';
export { runDatastoreContract } from './contract/run-datastore-contract.js';
export { closedPort } from './controller-process/flapping-proxy.js';
export { type BinProcess, fetchStatus, killBin, spawnBin } from './controller-process/process-harness.js';
export { describeControllerShutdown, leaseHolder } from './controller-process/shutdown-suite.js';
export { generateEtcdCertificates } from './etcd/etcd-certs.js';
export { DEFAULT_ETCD_BINARY, type EtcdHandle, EtcdNotInstalledError, startEtcd } from './etcd/start-etcd.js';
export { type EtcdFixture, withEtcd } from './etcd/with-etcd.js';
export { type InProcessRun, runMainInProcess } from './bin/run-main-in-process.js';
export { FakeClock } from './fake-clock.js';
export { type ClusterRole, loadClusterRole, type PolicyRule } from './kube-api-server/cluster-role.js';
export { FaultInjector } from './kube-api-server/fault-injection.js';
export { type KubeApiServer, startKubeApiServer } from './kube-api-server/kube-api-server.js';
export { type JsonValue } from './kube-api-server/lossless-json.js';
export { RbacAuthorizer } from './kube-api-server/rbac-authorizer.js';
export { requestAttributes } from './kube-api-server/request-attributes.js';
export { CORE_RESOURCE_TYPES, loadCrdDirectory, loadManifestDocuments, type ResourceType } from './kube-api-server/resource-types.js';
export {
  CALICO_API_MODES,
  deniedRequests,
  failOnDenial,
  KUBEVIRT_RESOURCE_TYPES,
  LEASE_RESOURCE_TYPE,
  type RoleBoundServer,
  startRoleBoundServer,
  unjustifiedGrants,
} from './kube-api-server/role-bound-server.js';
export { type OpenApiSchema, validateAgainstSchema } from './kube-api-server/schema-validator.js';
export { writeMissingPackagePreload } from './missing-package/index.js';
export { eth0Ipv4Addresses, runDebianPtp } from './cni-plugins/debian-ptp.js';
