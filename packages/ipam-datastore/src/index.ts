// The public API of @ipamkit/ipam-datastore (spec/api.md). Backends load lazily: this entry must
// not import better-sqlite3, etcd3 or @kubernetes/client-node.
export { createDatastore, datastoreConfigFromEnv, datastoreFromEnv, type DatastoreConfig, type EtcdConnectionConfig, type EtcdTlsConfig } from './create-datastore.js';
export { DatastoreClosedError, DatastoreConfigError, DatastoreStorageError, SchemaVersionError } from './errors.js';
export { DatastoreReadOnlyError } from './errors.js';
