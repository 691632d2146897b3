import { type Backoff, backoffDelay } from './backoff.js';
import { sleep as timerSleep } from './sleep.js';

export interface RetryPolicy {
  /** Total attempts, the first included; `Infinity` retries until success or abort. */
  readonly attempts: number;
  /** Which errors are worth another attempt; anything else surfaces at once. Default: every error. */
  readonly isRetryable?: (err: unknown) => boolean;
  /** The wait between attempts; `false` retries at once. */
  readonly backoff: Backoff | false;
  /** Stops retrying: no attempt starts after it aborts, and a wait in progress ends early. */
  readonly signal?: AbortSignal;
  /** Called after each retryable failure, the last included (e.g. to log, or drop a cache). */
  readonly onRetry?: (err: unknown, attempt: number) => void;
  /** The error thrown when every attempt failed retryably. Default: the last error itself. */
  readonly onExhausted?: (last: unknown, attempts: number) => unknown;
  /** Injected by tests: how to wait, and the uniform [0, 1) source of the jitter. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('retry aborted');
}

/**
 * The one retry loop of the workspace (design/models.md, "Retry"): runs `fn(attempt)` (0-based)
 * until it succeeds, waiting a jittered, capped, doubling delay after each retryable failure. A
 * non-retryable error surfaces unchanged on its first occurrence; an abort rejects with the
 * signal's reason; exhaustion throws `onExhausted`'s error (the last error by default).
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const { signal, backoff } = policy;
  const wait = policy.sleep ?? timerSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 0; ; attempt += 1) {
    if (signal?.aborted === true) throw abortReason(signal);
    try {
      return await fn(attempt);
    } catch (err) {
      if (policy.isRetryable !== undefined && !policy.isRetryable(err)) throw err;
      policy.onRetry?.(err, attempt);
      if (attempt + 1 >= policy.attempts) throw policy.onExhausted === undefined ? err : policy.onExhausted(err, attempt + 1);
    }
    if (backoff !== false) await wait(backoffDelay(backoff, attempt, random), signal);
  }
}
