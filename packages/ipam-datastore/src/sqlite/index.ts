export { createSqliteDatastore, type SqliteDatastoreOptions } from './create-sqlite-datastore.js';
export { DatastoreReadOnlyError } from './read-only-error.js';
export { SCHEMA_VERSION } from './schema.js';
