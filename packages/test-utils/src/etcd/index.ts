export {
  startEtcd,
  EtcdNotInstalledError,
  EtcdStartError,
  DEFAULT_ETCD_BINARY,
  type EtcdHandle,
  type StartEtcdOptions,
} from './start-etcd.js';
export { withEtcd, type EtcdFixture } from './with-etcd.js';
export { generateEtcdCertificates, DEFAULT_OPENSSL_BINARY, type EtcdTlsFiles } from './etcd-certs.js';
export { DEFAULT_ETCDCTL_BINARY, ETCD_ROOT_USER, type EtcdCredentials } from './etcd-auth.js';
