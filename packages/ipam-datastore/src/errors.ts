import { IpamError, ValidationError } from '@ipamkit/models';

// Package-specific errors; everything a caller must branch on is one of the models' classes.

/** The datastore was used after `close()`. Retrying cannot help. */
export class DatastoreClosedError extends ValidationError {
  override name = 'DatastoreClosedError';
  constructor() {
    super('the datastore is closed');
  }
}

/** The SQLite file was written by a newer ipamkit (its schema version is above the one we know). */
export class SchemaVersionError extends ValidationError {
  override name = 'SchemaVersionError';
  constructor(readonly found: number, readonly supported: number) {
    super(`datastore schema version ${found} is newer than this build supports (${supported}); upgrade ipamkit`);
  }
}

/**
 * A write was attempted through a SQLite datastore opened with `readonly: true`
 * (design/ipam-datastore.md, "Read-only opens"). Retrying cannot help.
 */
export class DatastoreReadOnlyError extends ValidationError {
  override name = 'DatastoreReadOnlyError';
  constructor(readonly path: string) {
    super(`the sqlite datastore at ${path} was opened read-only: writes are refused`);
  }
}

/** A `DatastoreConfig` or the environment named no usable backend. */
export class DatastoreConfigError extends ValidationError {
  override name = 'DatastoreConfigError';
}

/** The storage itself failed (disk full, I/O error, corruption): not retryable, needs an operator. */
export class DatastoreStorageError extends IpamError {
  override name = 'DatastoreStorageError';
  readonly category = 'validation';
}
