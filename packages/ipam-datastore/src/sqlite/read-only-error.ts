import { ValidationError } from '@ipamkit/models';

/** A write was attempted through a SQLite datastore opened with `readonly: true`. Retrying cannot help. */
export class DatastoreReadOnlyError extends ValidationError {
  override name = 'DatastoreReadOnlyError';
  constructor(path: string) {
    super(`the sqlite datastore at ${path} was opened read-only: writes are refused`);
  }
}
