import { DatastoreUnavailableError, retry, type RetryPolicy } from '@ipamkit/models';

/** How a backend resends a request its server could not answer: attempts and backoff of models' `retry()`. */
export type TransportRetry = Pick<RetryPolicy, 'attempts' | 'backoff'>;

/**
 * Runs `op` with `translate` applied to its errors once, and resends it only while it fails with
 * DatastoreUnavailableError (design/ipam-datastore.md, "Transport retries"). Conflicts, not-found
 * and validation errors surface at once: what to do after a lost CAS is the caller's job
 * (withCasRetry in the core), never a blind resend.
 */
export function retryUnavailable<T>(op: () => Promise<T>, policy: TransportRetry, translate: (err: unknown) => unknown = (err) => err): Promise<T> {
  const translated = async (): Promise<T> => {
    try {
      return await op();
    } catch (err) {
      throw translate(err);
    }
  };
  return retry(translated, { ...policy, isRetryable: (err) => err instanceof DatastoreUnavailableError });
}
