import { translateEtcdError } from './translate-etcd-error.js';
import { DatastoreUnavailableError, type IpamError } from '@ipamkit/models';

export interface RetryPolicy {
  /** Total attempts, the first included. */
  readonly attempts: number;
  /** Delay before the second attempt; doubles each time. */
  readonly initialDelayMs: number;
}

/** ~1.5 s in all: long enough to ride out a leader election, short enough for a CNI timeout. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, initialDelayMs: 50 };

/**
 * Runs `op`, translating etcd errors once, and retries only DatastoreUnavailableError with a short
 * exponential backoff. Conflicts, not-found and validation errors are never retried here: deciding
 * what to do after a lost CAS is the caller's job (withCasRetry in the core).
 */
export async function retryUnavailable<T>(identifier: string, policy: RetryPolicy, op: () => Promise<T>): Promise<T> {
  let delay = policy.initialDelayMs;
  let last: IpamError | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    try {
      return await op();
    } catch (err) {
      last = translateEtcdError(err, identifier);
      if (!(last instanceof DatastoreUnavailableError) || attempt === policy.attempts) throw last;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay *= 2;
  }
  // Unreachable with attempts >= 1; keeps the compiler sure a value or an error comes out.
  throw last ?? new DatastoreUnavailableError(`etcd unavailable for ${identifier}`);
}
