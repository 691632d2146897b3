import { ConflictError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { DATASTORE_RETRIES, MaxRetriesError, withCasRetry } from '../../src/index.js';

describe('withCasRetry', () => {
  it('retries transient errors until the function succeeds', async () => {
    let calls = 0;
    const result = await withCasRetry((attempt) => {
      calls += 1;
      return attempt < 3 ? Promise.reject(new ConflictError('k')) : Promise.resolve('done');
    });
    expect(result).toBe('done');
    expect(calls).toBe(4);
  });

  it('surfaces a non-transient error at once', async () => {
    let calls = 0;
    const failing = withCasRetry(() => {
      calls += 1;
      return Promise.reject(new NotFoundError('k'));
    });
    await expect(failing).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(1);
  });

  it('gives up after 100 attempts with the last error as cause', async () => {
    let calls = 0;
    const err: unknown = await withCasRetry(() => {
      calls += 1;
      return Promise.reject(new ConflictError(`k${calls}`));
    }).catch((e: unknown) => e);
    expect(calls).toBe(DATASTORE_RETRIES);
    expect(err).toBeInstanceOf(MaxRetriesError);
    expect((err as MaxRetriesError).cause).toMatchObject({ identifier: 'k100' });
  });

  it('does not multiply nested loops: an inner exhaustion is not retried by the outer loop', async () => {
    let inner = 0;
    const err: unknown = await withCasRetry(() =>
      withCasRetry(() => {
        inner += 1;
        return Promise.reject(new ConflictError('k'));
      }, { attempts: 3 }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MaxRetriesError);
    expect(inner).toBe(3);
  });

  it('uses the policy predicate', async () => {
    let calls = 0;
    await expect(
      withCasRetry(
        () => {
          calls += 1;
          return Promise.reject(new ConflictError('k'));
        },
        { isRetryable: () => false },
      ),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toBe(1);
  });
});
