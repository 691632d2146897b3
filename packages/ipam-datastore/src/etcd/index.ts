// @ipamkit/ipam-datastore/etcd: Calico's etcdv3 layout (design/ipam-datastore.md, "etcd backend").
export { createEtcdDatastore, type EtcdDatastoreConfig } from './etcd-datastore.js';
export type { TransportRetry } from '../transport-retry.js';
