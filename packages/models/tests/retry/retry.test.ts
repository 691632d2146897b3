import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, retry, sleep } from '../../src/index.js';

class Retryable extends Error {}
class Fatal extends Error {}

/** A sleep that records each wait and returns at once, so no test depends on timing. */
function recorder(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

/** Fails `failures` times with `err`, then answers 'ok'; counts its calls. */
function failing(failures: number, err: () => Error = () => new Retryable()): { calls: () => number; fn: (attempt: number) => Promise<string> } {
  const seen: number[] = [];
  return {
    calls: () => seen.length,
    fn: (attempt) => {
      seen.push(attempt);
      return seen.length <= failures ? Promise.reject(err()) : Promise.resolve('ok');
    },
  };
}

const isRetryable = (err: unknown): boolean => err instanceof Retryable;

describe('retry', () => {
  it.each([
    { attempts: 1, failures: 0, calls: 1, answer: 'ok' },
    { attempts: 3, failures: 2, calls: 3, answer: 'ok' },
    { attempts: 3, failures: 3, calls: 3, answer: 'exhausted' },
    { attempts: 5, failures: 10, calls: 5, answer: 'exhausted' },
    { attempts: Infinity, failures: 40, calls: 41, answer: 'ok' },
  ])('makes at most $attempts attempts: $failures failures → $calls calls, $answer', async ({ attempts, failures, calls, answer }) => {
    const op = failing(failures);
    const { sleep: wait } = recorder();
    const got = await retry(op.fn, { attempts, isRetryable, backoff: { baseMs: 1, capMs: 4 }, sleep: wait }).catch((err: unknown) =>
      err instanceof Retryable ? 'exhausted' : 'other',
    );
    expect([got, op.calls()]).toEqual([answer, calls]);
  });

  it('passes the 0-based attempt number and waits once between attempts, never after the last', async () => {
    const attempts: number[] = [];
    const rec = recorder();
    await retry(
      (attempt) => {
        attempts.push(attempt);
        return Promise.reject(new Retryable());
      },
      { attempts: 4, backoff: { baseMs: 10, capMs: 1000 }, sleep: rec.sleep },
    ).catch(() => undefined);
    expect(attempts).toEqual([0, 1, 2, 3]);
    expect(rec.waits).toEqual([10, 20, 40]);
  });

  it('surfaces an error the predicate refuses on its first occurrence, unchanged', async () => {
    const fatal = new Fatal('no');
    const op = failing(5, () => fatal);
    await expect(retry(op.fn, { attempts: 5, isRetryable, backoff: false })).rejects.toBe(fatal);
    expect(op.calls()).toBe(1);
  });

  it('throws what onExhausted makes of the last error, and reports every failure to onRetry', async () => {
    const retried: number[] = [];
    const err = await retry(failing(9).fn, {
      attempts: 3,
      backoff: false,
      onRetry: (_e, attempt) => retried.push(attempt),
      onExhausted: (last, attempts) => new Fatal(`${attempts} attempts, last ${String(last instanceof Retryable)}`),
    }).catch((e: unknown) => e);
    expect(err).toEqual(new Fatal('3 attempts, last true'));
    expect(retried).toEqual([0, 1, 2]);
  });

  it('retries at once with backoff false', async () => {
    const rec = recorder();
    await expect(retry(failing(2).fn, { attempts: 3, backoff: false, sleep: rec.sleep })).resolves.toBe('ok');
    expect(rec.waits).toEqual([]);
  });

  it('rejects with the signal reason and never calls fn when aborted before the first attempt', async () => {
    const stop = new AbortController();
    const reason = new Fatal('stopped');
    stop.abort(reason);
    const op = failing(0);
    await expect(retry(op.fn, { attempts: 3, backoff: false, signal: stop.signal })).rejects.toBe(reason);
    expect(op.calls()).toBe(0);
  });

  it('ends a wait in progress when the signal aborts, and starts no further attempt', async () => {
    const stop = new AbortController();
    const reason = new Fatal('stopped');
    const op = failing(5);
    const running = retry(op.fn, { attempts: 5, backoff: { baseMs: 3_600_000, capMs: 3_600_000 }, signal: stop.signal });
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(op.calls()).toBe(1);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});

describe('backoffDelay', () => {
  it('doubles from the base to the cap without jitter', () => {
    const backoff = { baseMs: 50, capMs: 400 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(backoff, n))).toEqual([50, 100, 200, 400, 400, 400]);
  });

  it('draws full jitter from [0, ceiling) and partial jitter from [(1 − jitter) × ceiling, ceiling)', () => {
    expect(backoffDelay({ baseMs: 10, capMs: 1000, jitter: 1 }, 2, () => 0.25)).toBe(10);
    expect(backoffDelay({ baseMs: 300, capMs: 30_000, jitter: 1 / 3 }, 0, () => 0)).toBeCloseTo(200, 9);
    expect(backoffDelay({ baseMs: 3, capMs: 150, jitter: 2 / 3 }, 9, () => 0.5)).toBeCloseTo(100, 9);
  });

  it('stays within [(1 − jitter) × ceiling, ceiling] ⊆ [0, cap] for any attempt and draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retryIndex, baseMs, extraCap, jitter, draw) => {
          const capMs = baseMs + extraCap;
          const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(retryIndex, 52));
          const delay = backoffDelay({ baseMs, capMs, jitter }, retryIndex, () => draw);
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(delay).toBeGreaterThanOrEqual((1 - jitter) * ceiling - 1e-9);
          expect(delay).toBeLessThanOrEqual(capMs);
        },
      ),
    );
  });

  it('never waits longer for a later retry than the cap, and never less than an earlier ceiling without jitter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100_000 }), (n, baseMs, capMs) => {
        const backoff = { baseMs, capMs };
        expect(backoffDelay(backoff, n + 1)).toBeGreaterThanOrEqual(backoffDelay(backoff, n));
      }),
    );
  });
});

describe('sleep', () => {
  it('removes its abort listener when the timer fires', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i += 1) await sleep(1, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('returns early, without rejecting, when the signal aborts', async () => {
    const stop = new AbortController();
    const waiting = sleep(3_600_000, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('returns at once for a signal already aborted', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(sleep(3_600_000, stop.signal)).resolves.toBeUndefined();
  });
});
