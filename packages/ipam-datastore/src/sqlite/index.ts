export { createSqliteDatastore, type SqliteDatastoreOptions } from './create-sqlite-datastore.js';
export { DatastoreReadOnlyError } from '../errors.js';
export { SCHEMA_VERSION } from './schema.js';
export { sqliteQuickCheck } from './quick-check.js';
