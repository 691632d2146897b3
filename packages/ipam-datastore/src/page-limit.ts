import { ValidationError } from '@ipamkit/models';

/** Checks a page limit of a paged read: a positive integer, else ValidationError before anything is read. */
export function pageLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`page limit must be a positive integer, got ${String(limit)}`);
  return limit;
}
