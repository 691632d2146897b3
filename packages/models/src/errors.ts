/**
 * How a caller must react to an error (design/architecture.md#conventions, design/calico-ipam.md#error-taxonomy):
 * - `transient`: try again (re-read first for a conflict); `withCasRetry` retries these.
 * - `state`: the object is missing or already there; the caller decides (often "treat as done").
 * - `validation`: the request is wrong; retrying cannot help.
 * - `stop-and-re-evaluate`: the world changed under the caller (a sequence number moved, a block is
 *   no longer empty, a watch expired); re-read and decide again, never blindly retry.
 */
export type ErrorCategory = 'transient' | 'state' | 'validation' | 'stop-and-re-evaluate';

export abstract class IpamError extends Error {
  abstract readonly category: ErrorCategory;
}

// ---- transient -------------------------------------------------------------------------------

/**
 * A compare-and-swap write lost: the stored revision is not the one the caller read. Calico's
 * update conflict also covers preconditions a caller set that no longer hold; such subclasses
 * (ipam-core's OwnerPreconditionError) are `stop-and-re-evaluate`, so a blind retry loop that
 * goes by category does not repeat them.
 */
export class ConflictError extends IpamError {
  override name = 'ConflictError';
  readonly category: ErrorCategory = 'transient';
  constructor(readonly identifier: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? `update conflict on ${identifier}: the object changed since it was read`, options);
  }
}

/** The datastore could not be reached or timed out (network error, SQLITE_BUSY, 5xx, 429). */
export class DatastoreUnavailableError extends IpamError {
  override name = 'DatastoreUnavailableError';
  readonly category = 'transient';
}

// ---- state -----------------------------------------------------------------------------------

export class NotFoundError extends IpamError {
  override name = 'NotFoundError';
  readonly category = 'state';
  constructor(readonly identifier: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? `resource does not exist: ${identifier}`, options);
  }
}

export class AlreadyExistsError extends IpamError {
  override name = 'AlreadyExistsError';
  readonly category = 'state';
  constructor(readonly identifier: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? `resource already exists: ${identifier}`, options);
  }
}

/** Credentials were refused (401/403). */
export class UnauthorizedError extends IpamError {
  override name = 'UnauthorizedError';
  readonly category = 'validation';
}

// ---- validation ------------------------------------------------------------------------------

export class ValidationError extends IpamError {
  override name = 'ValidationError';
  readonly category: ErrorCategory = 'validation';
}

/** A stored value could not be decoded (Calico's ErrorParsingDatastoreEntry). */
export class CodecError extends ValidationError {
  override name = 'CodecError';
}

export class SelectorParseError extends ValidationError {
  override name = 'SelectorParseError';
  constructor(message: string, readonly selector: string, readonly position: number) {
    super(`${message} at position ${position} in selector ${JSON.stringify(selector)}`);
  }
}

export class NoQualifiedPoolError extends ValidationError {
  override name = 'NoQualifiedPoolError';
}

export class StrictAffinityError extends ValidationError {
  override name = 'StrictAffinityError';
}

export class BlockLimitError extends ValidationError {
  override name = 'BlockLimitError';
}

export class MaxAllocReachedError extends ValidationError {
  override name = 'MaxAllocReachedError';
}

export class IPAMConfigConflictError extends ValidationError {
  override name = 'IPAMConfigConflictError';
}

export class UseRequiredError extends ValidationError {
  override name = 'UseRequiredError';
}

/** Owner attributes were requested for an address that is in cooldown. */
export class IPInCooldownError extends ValidationError {
  override name = 'IPInCooldownError';
  constructor(readonly ip: string) {
    super(`IP ${ip} is in cooldown`);
  }
}

// ---- stop and re-evaluate --------------------------------------------------------------------

/** A release named a sequence number that is no longer the allocation's (ABA protection). */
export class BadSequenceNumberError extends IpamError {
  override name = 'BadSequenceNumberError';
  readonly category = 'stop-and-re-evaluate';
  constructor(readonly requested: bigint, readonly expected: bigint, readonly address?: string) {
    super(`sequence number mismatch${address === undefined ? '' : ` for ${address}`}: requested ${requested}, stored ${expected}`);
  }
}

/** A release or owner update named a handle that does not own the address. */
export class BadHandleError extends IpamError {
  override name = 'BadHandleError';
  readonly category = 'stop-and-re-evaluate';
  /** `message` replaces the default text where Calico words this case its own way. */
  constructor(readonly requested: string, readonly expected: string | undefined, readonly address?: string, message?: string) {
    super(message ?? `handle mismatch${address === undefined ? '' : ` for ${address}`}: requested ${requested}, stored ${expected ?? '(none)'}`);
  }
}

export class BlockNotEmptyError extends IpamError {
  override name = 'BlockNotEmptyError';
  readonly category = 'stop-and-re-evaluate';
  constructor(readonly cidr: string) {
    super(`block ${cidr} is not empty`);
  }
}

/** The revision a watch asked for was compacted away (410 Gone): list again, then watch. */
export class WatchExpiredError extends IpamError {
  override name = 'WatchExpiredError';
  readonly category = 'stop-and-re-evaluate';
}

/** True for errors a read-modify-write loop should retry after re-reading. */
export function isTransient(err: unknown): boolean {
  return err instanceof IpamError && err.category === 'transient';
}

/** What `read` resolves to, or `undefined` when the object does not exist (NotFoundError); other errors propagate. */
export async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
