import { ConflictError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { DATASTORE_RETRIES, MaxRetriesError, withCasRetry } from '../../src/index.js';

describe('withCasRetry', () => {
  it('retries transient errors until the function succeeds', async () => {
    let calls = 0;
    const result = await withCasRetry(async (attempt) => {
      calls += 1;
      if (attempt < 3) throw new ConflictError('k');
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(4);
  });

  it('surfaces a non-transient error at once', async () => {
    let calls = 0;
    const failing = withCasRetry(async () => {
      calls += 1;
      throw new NotFoundError('k');
    });
    await expect(failing).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(1);
  });

  it('gives up after 100 attempts with the last error as cause', async () => {
    let calls = 0;
    const err: unknown = await withCasRetry(async () => {
      calls += 1;
      throw new ConflictError(`k${calls}`);
    }).catch((e: unknown) => e);
    expect(calls).toBe(DATASTORE_RETRIES);
    expect(err).toBeInstanceOf(MaxRetriesError);
    expect((err as MaxRetriesError).cause).toMatchObject({ identifier: 'k100' });
  });

  it('does not multiply nested loops: an inner exhaustion is not retried by the outer loop', async () => {
    let inner = 0;
    const err: unknown = await withCasRetry(() =>
      withCasRetry(async () => {
        inner += 1;
        throw new ConflictError('k');
      }, { attempts: 3 }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MaxRetriesError);
    expect(inner).toBe(3);
  });

  it('uses the policy predicate', async () => {
    let calls = 0;
    await expect(
      withCasRetry(
        async () => {
          calls += 1;
          throw new ConflictError('k');
        },
        { isRetryable: () => false },
      ),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toBe(1);
  });
});
