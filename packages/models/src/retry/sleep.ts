import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms`, or less when `signal` aborts; never rejects, so the caller checks its signal. The
 * abort listener goes when the timer fires, so a long-lived signal collects none (design/models.md,
 * "Retry").
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return;
  try {
    await delay(ms, undefined, signal === undefined ? undefined : { signal });
  } catch {
    // Aborted.
  }
}
