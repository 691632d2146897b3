import { DatastoreUnavailableError } from '@ipamkit/models';

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 50 };

/**
 * Runs `fn` again, with doubling delays, while it fails with DatastoreUnavailableError (refused
 * connection, 429, 5xx). Conflicts and every other error surface at once: a conflict needs a
 * re-read by the caller, not a blind resend.
 */
export async function retryTransient<T>(fn: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY_POLICY): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof DatastoreUnavailableError) || attempt >= policy.attempts) throw err;
      const delay = policy.baseDelayMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
