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
  // Named fields, not a spread of `policy`: callers pass policies of many shapes, and a spread of
  // those takes V8's slow generic path, ~2 µs per loop (design/ipam-core.md, "Allocation cost: the
  // sixth round (2026-12-02)").
  const { attempts = DATASTORE_RETRIES, isRetryable = defaultRetryable, backoff = DEFAULT_CAS_BACKOFF, onRetry, sleep, random } = policy;
  const loop: { -readonly [K in keyof RetryPolicy]: RetryPolicy[K] } = {
    attempts,
    isRetryable,
    backoff: backoff === false ? false : { baseMs: backoff.baseMs, capMs: backoff.capMs, jitter: 1 },
    onExhausted: (last, n) => new MaxRetriesError(policy.operation ?? 'read-modify-write', n, { cause: last }),
  };
  if (onRetry !== undefined) loop.onRetry = onRetry;
  if (sleep !== undefined) loop.sleep = sleep;
  if (random !== undefined) loop.random = random;
  return retry(fn, loop);
}
