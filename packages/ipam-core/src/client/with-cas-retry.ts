import { type Backoff, isTransient, retry, type RetryPolicy } from '@ipamkit/models';
import { MaxRetriesError } from './client-errors.js';

/** Calico's `datastoreRetries` (design/ipam-core.md, "Retries and backoff"): every read-modify-write loop gives up after this. */
export const DATASTORE_RETRIES = 100;

/** The backoff of the CAS loops: models' `Backoff` with full jitter (design/ipam-core.md, "Retries and backoff"). */
export type CasBackoff = Omit<Backoff, 'jitter'>;

/** 1 ms doubling to at most 64 ms: 100 attempts wait about 3 s on average in the worst case. */
export const DEFAULT_CAS_BACKOFF: CasBackoff = { baseMs: 1, capMs: 64 };

export interface CasRetryPolicy extends Partial<Pick<RetryPolicy, 'attempts' | 'isRetryable' | 'onRetry' | 'sleep' | 'random'>> {
  /** What the loop was doing, for the exhaustion message. */
  readonly operation?: string;
  /** Wait between attempts (full jitter); `false` retries at once. Default DEFAULT_CAS_BACKOFF. */
  readonly backoff?: CasBackoff | false;
}

/** Transient errors, except an inner loop's exhaustion: nested loops must not multiply to 100 × 100. */
function defaultRetryable(err: unknown): boolean {
  return isTransient(err) && !(err instanceof MaxRetriesError);
}

/**
 * The read-modify-write loop of the client: models' `retry()` with the CAS defaults. `fn` must
 * re-read what it modifies on every call; racers that lose a compare-and-swap to each other
 * otherwise retry in lock step and can starve one another (design/ipam-core.md, "Retries and
 * backoff"). Exhaustion throws MaxRetriesError carrying the last retryable error as its cause.
 */
export function withCasRetry<T>(fn: (attempt: number) => Promise<T>, policy: CasRetryPolicy = {}): Promise<T> {
  const backoff = policy.backoff ?? DEFAULT_CAS_BACKOFF;
  return retry(fn, {
    ...policy,
    attempts: policy.attempts ?? DATASTORE_RETRIES,
    isRetryable: policy.isRetryable ?? defaultRetryable,
    backoff: backoff === false ? false : { ...backoff, jitter: 1 },
    onExhausted: (last, attempts) => new MaxRetriesError(policy.operation ?? 'read-modify-write', attempts, { cause: last }),
  });
}
