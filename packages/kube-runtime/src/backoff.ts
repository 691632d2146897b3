import { setTimeout as delay } from 'node:timers/promises';

export interface BackoffOptions {
  /** The first delay (default 200 ms). */
  readonly initialMs?: number;
  /** The delay never grows past this (default 30 s). */
  readonly maxMs?: number;
  /** Up to this fraction of the delay is added at random (default 0.5), so restarts spread out. */
  readonly jitter?: number;
  /** A number in [0, 1); injected by tests. */
  readonly random?: () => number;
}

/**
 * Exponential backoff with jitter (design/kube-runtime.md "Reflector"): `next()` answers the next
 * delay and doubles the base, `reset()` goes back to the first delay after a success.
 */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly jitter: number;
  private readonly random: () => number;
  private baseMs: number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 200;
    this.maxMs = options.maxMs ?? 30_000;
    this.jitter = options.jitter ?? 0.5;
    this.random = options.random ?? Math.random;
    this.baseMs = this.initialMs;
  }

  next(): number {
    const ms = this.baseMs * (1 + this.jitter * this.random());
    this.baseMs = Math.min(this.baseMs * 2, this.maxMs);
    return Math.min(ms, this.maxMs);
  }

  reset(): void {
    this.baseMs = this.initialMs;
  }
}

/**
 * Waits `ms`, or less if `signal` aborts; never rejects. `node:timers/promises` removes its abort
 * listener when the timer fires, so a long-lived signal collects no listeners (design/kube-runtime.md
 * "Graceful shutdown").
 */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  try {
    await delay(ms, undefined, { signal });
  } catch {
    // Aborted: the caller checks its signal.
  }
}

/** Settles with the promise's value, or `undefined` as soon as `signal` aborts (listener removed either way). */
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<{ value: T } | undefined> {
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** Settles with the promise's value, or `undefined` after `ms` (the timer is cleared either way). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
