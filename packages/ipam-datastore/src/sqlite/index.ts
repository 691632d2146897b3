export { createSqliteDatastore, type SqliteDatastoreOptions } from './create-sqlite-datastore.js';
export { DatastoreReadOnlyError, SchemaVersionError } from '../errors.js';
export { sqliteQuickCheck } from './quick-check.js';
