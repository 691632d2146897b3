import { IpamError, ValidationError, type ErrorCategory } from '@ipamkit/models';

// The CLI's own errors, grouped by the taxonomy of packages/models/src/errors.ts. Datastore and
// core errors pass through unchanged; the runner prints `error.message` to stderr and exits 1.

/** The message of anything thrown, for wrapping it in a CLI error. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A flag or argument is missing or malformed; nothing was read or written. */
export class CliUsageError extends ValidationError {
  override name = 'CliUsageError';
}

/** An `--ip` value is not an IP address (calicoctl: `invalid IP address specified: <value>`). */
export class InvalidIPArgumentError extends ValidationError {
  override name = 'InvalidIPArgumentError';
  constructor(readonly value: string) {
    super(`invalid IP address specified: ${value}`);
  }
}

/** A file given to `--from-report` or `--cluster-state` cannot be read or is not the expected JSON. */
export class InputFileError extends ValidationError {
  override name = 'InputFileError';
  constructor(readonly file: string, why: string, options?: { cause?: unknown }) {
    super(`${file}: ${why}`, options);
  }
}

/**
 * A report failed a `release --from-report` safety check (design/cli.md "Releasing from a
 * report"): the world may have changed since it was written, so regenerate it and look again.
 */
export class ReportRejectedError extends IpamError {
  override name = 'ReportRejectedError';
  readonly category: ErrorCategory = 'stop-and-re-evaluate';
}

/** An address is in IPAM cooldown: it is neither free nor owned (design/calico-callers.md#ipam-show). */
export class AddressInCooldownError extends IpamError {
  override name = 'AddressInCooldownError';
  readonly category: ErrorCategory = 'state';
  constructor(readonly ip: string) {
    super(`address ${ip} is in cooldown`);
  }
}

/** `release --ip` of an address that is not allocated. */
export class AddressNotAssignedError extends IpamError {
  override name = 'AddressNotAssignedError';
  readonly category: ErrorCategory = 'state';
  constructor(readonly ip: string) {
    super(`IP address ${ip} is not assigned`);
  }
}

/**
 * `datastore migrate` refuses the data or the target as they are (a node without a Kubernetes name,
 * names that would collide, a target that is not empty); nothing was written.
 */
export class MigrationRejectedError extends ValidationError {
  override name = 'MigrationRejectedError';
}

/**
 * An import write failed part-way (a datastore error, not bad input); the objects created before it
 * were deleted again unless `rolledBack` is false, in which case the message lists what remains.
 */
export class MigrationImportError extends IpamError {
  override name = 'MigrationImportError';
  readonly category: ErrorCategory = 'transient';
  constructor(message: string, readonly rolledBack: boolean, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The datastore a read-only or updating command names does not exist (a SQLite file or its
 * directory is missing): nothing was created. Exit status 3, as for an unreachable server
 * (design/cli.md "Exit codes").
 */
export class DatastoreMissingError extends IpamError {
  override name = 'DatastoreMissingError';
  readonly category: ErrorCategory = 'validation';
}

/**
 * `ipam migrate-pool finish` refused: the old pool still holds allocations (or addresses in
 * cooldown), or the migration was not started. Nothing was removed; look again later.
 */
export class PoolNotDrainedError extends IpamError {
  override name = 'PoolNotDrainedError';
  readonly category: ErrorCategory = 'stop-and-re-evaluate';
}
