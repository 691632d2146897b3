export {
  startEtcd,
  EtcdNotInstalledError,
  EtcdStartError,
  DEFAULT_ETCD_BINARY,
  type EtcdHandle,
  type StartEtcdOptions,
} from './start-etcd.js';
export { withEtcd, type EtcdFixture } from './with-etcd.js';
