import { backoffDelay, ConflictError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { MaxRetriesError, withCasRetry } from '../../src/index.js';
import { DATASTORE_RETRIES, DEFAULT_CAS_BACKOFF } from '../../src/client/with-cas-retry.js';

const noWait = (): Promise<void> => Promise.resolve();

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
    const err: unknown = await withCasRetry(
      () => {
        calls += 1;
        return Promise.reject(new ConflictError(`k${calls}`));
      },
      { sleep: noWait },
    ).catch((e: unknown) => e);
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

  it('waits a full-jitter delay that doubles from the base up to the cap before each retry', async () => {
    const waits: number[] = [];
    let calls = 0;
    const err: unknown = await withCasRetry(
      () => {
        calls += 1;
        return Promise.reject(new ConflictError('k'));
      },
      {
        attempts: 8,
        backoff: { baseMs: 2, capMs: 40 },
        random: () => 0.5,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MaxRetriesError);
    expect(calls).toBe(8);
    // One wait between consecutive attempts, none after the last: 0.5 × min(40, 2 × 2^n).
    expect(waits).toEqual([1, 2, 4, 8, 16, 20, 20]);
  });

  it('draws each wait from the jitter source, so racers that collided once spread apart', async () => {
    const draws = [0.9, 0.1, 0.6];
    const waits: number[] = [];
    await withCasRetry(
      (attempt) => (attempt < 3 ? Promise.reject(new ConflictError('k')) : Promise.resolve('ok')),
      {
        backoff: { baseMs: 10, capMs: 1000 },
        random: () => draws.shift() ?? 0,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    );
    expect(waits).toEqual([9, 2, 24]);
  });

  it('retries at once without waiting when backoff is off, and never waits after a success', async () => {
    const waits: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      waits.push(ms);
      return Promise.resolve();
    };
    await withCasRetry((attempt) => (attempt < 2 ? Promise.reject(new ConflictError('k')) : Promise.resolve(1)), { backoff: false, sleep });
    expect(waits).toEqual([]);
    await withCasRetry(() => Promise.resolve(1), { sleep });
    expect(waits).toEqual([]);
  });

  it('passes each field of the policy to the loop: onRetry, attempts, isRetryable and the operation named on exhaustion', async () => {
    const seen: number[] = [];
    const failing = () => Promise.reject(new ConflictError('k'));
    const exhausted = withCasRetry(failing, { backoff: false, attempts: 3, operation: 'the test', onRetry: (_err, attempt) => seen.push(attempt) });
    await expect(exhausted).rejects.toThrow(/the test/);
    await expect(exhausted).rejects.toBeInstanceOf(MaxRetriesError);
    expect(seen).toEqual([0, 1, 2]);
    await expect(withCasRetry(failing, { backoff: false, isRetryable: () => false })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('the CAS backoff (full jitter over DEFAULT_CAS_BACKOFF)', () => {
  const casBackoffDelay = (backoff: typeof DEFAULT_CAS_BACKOFF, attempt: number, random: () => number): number => backoffDelay({ ...backoff, jitter: 1 }, attempt, random);
  it('stays within [0, cap] for every attempt and every jitter draw, however many attempts', () => {
    const { capMs } = DEFAULT_CAS_BACKOFF;
    for (const attempt of [0, 1, 5, 6, 7, 50, 99, 1000, 5000]) {
      for (const r of [0, 0.25, 0.999999]) {
        const delay = casBackoffDelay(DEFAULT_CAS_BACKOFF, attempt, () => r);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(capMs);
      }
    }
    expect(casBackoffDelay(DEFAULT_CAS_BACKOFF, 1000, () => 0.5)).toBe(capMs / 2);
  });
});
