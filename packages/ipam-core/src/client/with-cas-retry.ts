import { isTransient } from '@ipamkit/models';
import { MaxRetriesError } from './client-errors.js';

/** Calico's `datastoreRetries` (design/calico-ipam.md#constants): every read-modify-write loop gives up after this. */
export const DATASTORE_RETRIES = 100;

/**
 * Bounded exponential backoff with full jitter (design/ipam-core.md, "Retries and backoff"): the
 * wait before retry n (0-based) is uniform in [0, min(capMs, baseMs × 2^n)).
 */
export interface CasBackoff {
  readonly baseMs: number;
  readonly capMs: number;
}

/** 1 ms doubling to at most 64 ms: 100 attempts wait about 3 s on average in the worst case. */
export const DEFAULT_CAS_BACKOFF: CasBackoff = { baseMs: 1, capMs: 64 };

export interface CasRetryPolicy {
  /** Total attempts, including the first. */
  readonly attempts?: number;
  /** Which errors mean "re-read and try again". Default: the transient category of models/errors. */
  readonly isRetryable?: (err: unknown) => boolean;
  /** Called before each retry (after a retryable failure); e.g. to invalidate a cache. */
  readonly onRetry?: (err: unknown, attempt: number) => void;
  /** What the loop was doing, for the exhaustion message. */
  readonly operation?: string;
  /** Wait between attempts; `false` retries at once. Default DEFAULT_CAS_BACKOFF. */
  readonly backoff?: CasBackoff | false;
  /** Injected for tests: how to wait, and the uniform [0, 1) source of the jitter. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** Transient errors, except an inner loop's exhaustion: nested loops must not multiply to 100 × 100. */
function defaultRetryable(err: unknown): boolean {
  return isTransient(err) && !(err instanceof MaxRetriesError);
}

function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The full-jitter delay before retry `attempt` (0-based), never above the cap. */
export function casBackoffDelay(backoff: CasBackoff, attempt: number, random: () => number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(attempt, 52));
  return Math.max(0, Math.min(ceiling, random() * ceiling));
}

/**
 * The one read-modify-write loop of the client (design/architecture.md#conventions): run `fn` (which must re-read what
 * it modifies on every call) until it succeeds, retrying only retryable errors after a jittered,
 * bounded wait. Racers that lose a compare-and-swap to each other otherwise retry in lock step and
 * can starve one another for all 100 attempts (design/ipam-core.md, "Retries and backoff").
 * Everything else surfaces unchanged on the first occurrence; exhaustion throws MaxRetriesError
 * carrying the last retryable error as its cause.
 */
export async function withCasRetry<T>(fn: (attempt: number) => Promise<T>, policy: CasRetryPolicy = {}): Promise<T> {
  const attempts = policy.attempts ?? DATASTORE_RETRIES;
  const isRetryable = policy.isRetryable ?? defaultRetryable;
  const backoff = policy.backoff ?? DEFAULT_CAS_BACKOFF;
  const sleep = policy.sleep ?? timerSleep;
  const random = policy.random ?? Math.random;
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      last = err;
      policy.onRetry?.(err, attempt);
    }
    if (backoff !== false && attempt + 1 < attempts) await sleep(casBackoffDelay(backoff, attempt, random));
  }
  throw new MaxRetriesError(policy.operation ?? 'read-modify-write', attempts, { cause: last });
}
