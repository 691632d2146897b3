// The surface of @ipamkit/test-utils (private): the test harnesses other packages' tests share,
// named one export at a time (design/test-utils.md).
export { type ChangeEvent, collectEvents, describeEvent } from './contract/collect-events.js';
export {
  type ContractBackend,
  type ContractOptions,
  type ContractSetup,
  type SoftDeletedRow,
} from './contract/contract-backend.js';
export {
  allocateFirst,
  BIG_SEQUENCE_NUMBER,
  content,
  SAMPLE_IPAM_CONFIG,
  sampleAffinity,
  sampleBlock,
  sampleHandle,
} from './contract/contract-fixtures.js';
export { runDatastoreContract } from './contract/run-datastore-contract.js';
export { closedPort, type FlappingProxy, type ProxyMode, startFlappingProxy } from './controller-process/flapping-proxy.js';
export { type BinProcess, fetchStatus, killBin, spawnBin, writeKubeconfigForPort } from './controller-process/process-harness.js';
export { describeControllerShutdown, leaseHolder, type ShutdownSubject } from './controller-process/shutdown-suite.js';
export { DEFAULT_ETCDCTL_BINARY, ETCD_ROOT_USER, type EtcdCredentials } from './etcd/etcd-auth.js';
export { DEFAULT_OPENSSL_BINARY, type EtcdTlsFiles, generateEtcdCertificates } from './etcd/etcd-certs.js';
export {
  DEFAULT_ETCD_BINARY,
  type EtcdHandle,
  EtcdNotInstalledError,
  EtcdStartError,
  startEtcd,
  type StartEtcdOptions,
} from './etcd/start-etcd.js';
export { type EtcdFixture, withEtcd } from './etcd/with-etcd.js';
export { type InProcessRun, runMainInProcess } from './bin/run-main-in-process.js';
export { FakeClock } from './fake-clock.js';
export {
  type ClusterRole,
  ClusterRoleError,
  type Justification,
  loadClusterRole,
  parseClusterRole,
  type PolicyRule,
} from './kube-api-server/cluster-role.js';
export {
  type FaultCounts,
  FaultInjector,
  type FaultInjectorOptions,
  type FaultRequest,
  type InjectedFaultStatus,
} from './kube-api-server/fault-injection.js';
export {
  type InjectedFailure,
  type KubeApiServer,
  type KubeApiServerOptions,
  type KubeconfigIdentity,
  type KubeconfigOptions,
  type RawObjectRef,
  type RecordedRequest,
  startKubeApiServer,
} from './kube-api-server/kube-api-server.js';
export { type LabelRequirement, matchesLabels, parseLabelSelector } from './kube-api-server/label-selector.js';
export { type JsonValue, parseLosslessJson, stringifyLosslessJson } from './kube-api-server/lossless-json.js';
export {
  type Decision,
  type Denial,
  describeGrant,
  type Grant,
  leastPrivilegeReport,
  RbacAuthorizer,
} from './kube-api-server/rbac-authorizer.js';
export { requestAttributes, type RequestAttributes } from './kube-api-server/request-attributes.js';
export {
  CORE_RESOURCE_TYPES,
  loadCrdDirectory,
  loadManifestDocuments,
  type ResourceType,
  resourceTypesFromCrd,
} from './kube-api-server/resource-types.js';
export {
  CALICO_API_MODES,
  type CalicoApiMode,
  deniedRequests,
  failOnDenial,
  KUBEVIRT_RESOURCE_TYPES,
  LEASE_RESOURCE_TYPE,
  type RoleBoundServer,
  startRoleBoundServer,
  unjustifiedGrants,
} from './kube-api-server/role-bound-server.js';
export { type FieldError, type OpenApiSchema, validateAgainstSchema } from './kube-api-server/schema-validator.js';
export { writeMissingPackagePreload } from './missing-package/index.js';
export { DEBIAN_PTP, eth0Ipv4Addresses, type PluginExit, runDebianPtp } from './cni-plugins/debian-ptp.js';
