import { isTransient } from '@ipamkit/models';
import { MaxRetriesError } from './client-errors.js';

/** Calico's `datastoreRetries` (spec/core.md §1): every read-modify-write loop gives up after this. */
export const DATASTORE_RETRIES = 100;

export interface CasRetryPolicy {
  /** Total attempts, including the first. */
  readonly attempts?: number;
  /** Which errors mean "re-read and try again". Default: the transient category of models/errors. */
  readonly isRetryable?: (err: unknown) => boolean;
  /** Called before each retry (after a retryable failure); e.g. to invalidate a cache. */
  readonly onRetry?: (err: unknown, attempt: number) => void;
  /** What the loop was doing, for the exhaustion message. */
  readonly operation?: string;
}

/** Transient errors, except an inner loop's exhaustion: nested loops must not multiply to 100 × 100. */
function defaultRetryable(err: unknown): boolean {
  return isTransient(err) && !(err instanceof MaxRetriesError);
}

/**
 * The one read-modify-write loop of the client (CONVENTIONS.md): run `fn` (which must re-read what
 * it modifies on every call) until it succeeds, retrying only retryable errors. Everything else
 * surfaces unchanged on the first occurrence; exhaustion throws MaxRetriesError carrying the last
 * retryable error as its cause.
 */
export async function withCasRetry<T>(fn: (attempt: number) => Promise<T>, policy: CasRetryPolicy = {}): Promise<T> {
  const attempts = policy.attempts ?? DATASTORE_RETRIES;
  const isRetryable = policy.isRetryable ?? defaultRetryable;
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      last = err;
      policy.onRetry?.(err, attempt);
    }
  }
  throw new MaxRetriesError(policy.operation ?? 'read-modify-write', attempts, { cause: last });
}
