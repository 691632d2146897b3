// The public API of @ipamkit/ipam-datastore (design/ipam-datastore.md#entry-points-and-loading): open a
// datastore, resolve its configuration and redact its secrets. Backends load lazily: this entry must
// not import better-sqlite3, etcd3 or @kubernetes/client-node. Tests reach the rest by path.
export { createDatastore, datastoreFromEnv, type DatastoreConfig } from './create-datastore.js';
export { DatastoreConfigError, DatastoreStorageError } from './errors.js';
export type { DatastoreOverrides, OverrideNames } from './config/datastore-overrides.js';
export { resolveDatastoreConfig, DEFAULT_SQLITE_PATH } from './config/resolve-datastore-config.js';
export { redactSecrets, redactedErrorMessage, datastoreSecrets } from './config/redact-secrets.js';
