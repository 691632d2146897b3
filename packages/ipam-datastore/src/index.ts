// The public API of @ipamkit/ipam-datastore (design/architecture.md#public-api). Backends load lazily: this entry must
// not import better-sqlite3, etcd3 or @kubernetes/client-node.
export { createDatastore, datastoreConfigFromEnv, datastoreFromEnv, type DatastoreConfig, type EtcdConnectionConfig, type EtcdTlsConfig } from './create-datastore.js';
export { DatastoreClosedError, DatastoreConfigError, DatastoreStorageError, SchemaVersionError } from './errors.js';
export { DatastoreReadOnlyError } from './errors.js';
export { DATASTORE_ENV_NAMES, type DatastoreOverrides, type DatastoreSetting, type OverrideNames } from './config/datastore-overrides.js';
export { resolveDatastoreConfig, DEFAULT_SQLITE_PATH, DATASTORE_TYPES, type ConfigEnv } from './config/resolve-datastore-config.js';
export { parseEtcdEndpoints } from './config/etcd-endpoints.js';
export { redactSecrets, redactedErrorMessage, datastoreSecrets } from './config/redact-secrets.js';
