import { armAlarm, sleep } from '@ipamkit/models';
import { CNI_CODES, CniError } from '../errors.js';

/**
 * The default budget of one CNI call, lock wait and datastore work together (design/cni.md,
 * "Deadline"): with the allowances below, an ADD or DEL answers within a minute in every failure
 * mode, well inside kubelet's two-minute runtime timeout.
 */
export const DEFAULT_TIMEOUT_SECONDS = 50;
/** The longest closing the datastore may take once the answer is known. */
export const CLOSE_GRACE_MS = 3_000;
/** Starting Node, reading stdin and parsing the config, before the budget starts. */
export const STARTUP_ALLOWANCE_MS = 2_000;
/** The answer the plugin guarantees by default. */
export const ANSWER_WITHIN_MS = 60_000;

/** The latest a call answers, from process start, with a budget of `timeoutSeconds`. */
export function worstCaseAnswerMs(timeoutSeconds: number): number {
  return STARTUP_ALLOWANCE_MS + timeoutSeconds * 1000 + CLOSE_GRACE_MS;
}

/** Monotonic milliseconds; `process.hrtime` needs no module (`node:perf_hooks` costs every call a load). */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** One call's budget, and what the call is waiting for now, so the code-11 answer can name it. */
export class CallDeadline {
  private readonly expiresAt: number;
  private activity: string;
  private lastUnavailable: string | undefined;

  constructor(
    readonly timeoutSeconds: number,
    initialActivity: string,
    private readonly now: () => number = monotonicMs,
  ) {
    this.expiresAt = now() + timeoutSeconds * 1000;
    this.activity = initialActivity;
  }

  remainingMs(): number {
    return Math.max(0, this.expiresAt - this.now());
  }

  /** Runs `work`, naming it as what the call waits for until it settles. */
  async during<T>(what: string, work: () => Promise<T>): Promise<T> {
    const before = this.activity;
    this.activity = what;
    try {
      return await work();
    } finally {
      this.activity = before;
    }
  }

  /** Remembers why the datastore was last unavailable, for the code-11 answer's details. */
  noteUnavailable(err: Error): void {
    this.lastUnavailable = err.message;
  }

  /**
   * The code-11 answer when the budget runs out; its details carry the last datastore
   * unavailability seen (which names the endpoint), if any (design/cni.md, "Deadline").
   */
  expired(what: string = this.activity): CniError {
    const details = this.lastUnavailable === undefined ? '' : `last datastore error: ${this.lastUnavailable}`;
    return new CniError(CNI_CODES.tryAgainLater, `timed out after ${this.timeoutSeconds} s (ipam.timeout_seconds) ${what}`, details);
  }
}

/**
 * Runs a whole call under `deadline` (the verbs hand it on explicitly, as `inv.deadline`: no
 * AsyncLocalStorage, whose promise hooks would slow every await and keep the bundle out of a startup
 * snapshot; design/cni.md, "Deadline"), and the call rejects with code 11 naming what it was waiting for when the budget runs out, whatever it was
 * doing. Work still pending then is abandoned (the bin exits; the datastore's compare-and-swap
 * keeps a half-done write harmless).
 *
 * The budget is an alarm, not a timer (design/cni.md, "Deadline"): a call that ends well never
 * compiles Node's timer lists. An alarm does not keep the process alive, so should the event loop
 * ever run dry with the call still pending, a timer armed then holds the process open until the
 * budget ends and the code-11 answer goes out, as the call's own timer would have.
 */
export async function runWithinDeadline<T>(deadline: CallDeadline, work: () => Promise<T>): Promise<T> {
  let expire: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = () => reject(deadline.expired());
  });
  const alarm = armAlarm(deadline.remainingMs(), () => expire?.());
  const call: PendingCall = { deadline, expire: () => expire?.(), keptOpen: undefined };
  pendingCalls.add(call);
  watchForADryEventLoop();
  try {
    return await Promise.race([work(), expired]);
  } finally {
    alarm.cancel();
    pendingCalls.delete(call);
    clearTimeout(call.keptOpen);
  }
}

/** A call under way, and the timer that holds the process open for it once the event loop ran dry. */
interface PendingCall {
  readonly deadline: CallDeadline;
  readonly expire: () => void;
  keptOpen: NodeJS.Timeout | undefined;
}

const pendingCalls = new Set<PendingCall>();
let watchingForADryEventLoop = false;

/**
 * One `beforeExit` listener for the process, registered by its first call and kept: adding and
 * removing one per call would compile the emitter's once-and-remove paths for every short-lived
 * process. It arms a timer for each call still pending.
 */
function watchForADryEventLoop(): void {
  if (watchingForADryEventLoop) return;
  watchingForADryEventLoop = true;
  process.on('beforeExit', () => {
    for (const call of pendingCalls) call.keptOpen ??= setTimeout(call.expire, call.deadline.remainingMs());
  });
}

/** Waits `ms`, or less when the call's budget ends first; false when the budget is spent. */
export async function sleepWithin(deadline: CallDeadline, ms: number): Promise<boolean> {
  const wait = Math.min(ms, deadline.remainingMs());
  if (wait <= 0) return false;
  await sleep(wait);
  return true;
}
