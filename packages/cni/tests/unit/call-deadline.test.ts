import { afterEach, describe, expect, it, vi } from 'vitest';
import { CniError } from '../../src/errors.js';
import { ANSWER_WITHIN_MS, CallDeadline, DEFAULT_TIMEOUT_SECONDS, runWithinDeadline, worstCaseAnswerMs } from '../../src/runtime/call-deadline.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../../src/runtime/deadline.js';

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

async function failure(promise: Promise<unknown>): Promise<CniError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error('expected a CNI error');
}

const never = () => new Promise<never>(() => undefined);

describe('the default budget', () => {
  it('answers an ADD or DEL within 60 s in every failure mode: startup, the budget (lock wait included) and closing', () => {
    expect(worstCaseAnswerMs(DEFAULT_TIMEOUT_SECONDS)).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
    expect(ANSWER_WITHIN_MS).toBe(60_000);
  });

  it('is shorter than the allocation deadline, which it caps', () => {
    expect(DEFAULT_TIMEOUT_SECONDS * 1000).toBeLessThan(ALLOCATION_DEADLINE_MS);
  });
});

describe('CallDeadline', () => {
  it('counts down on its clock and never goes below zero', () => {
    const clock = manualClock();
    const d = new CallDeadline(5, 'starting', clock.now);
    expect(d.remainingMs()).toBe(5_000);
    clock.advance(4_000);
    expect(d.remainingMs()).toBe(1_000);
    clock.advance(9_000);
    expect(d.remainingMs()).toBe(0);
  });

  it('names what the call is waiting for in its code-11 answer, and restores the previous activity', async () => {
    const d = new CallDeadline(2, 'waiting for ADD to finish', manualClock().now);
    let inside = '';
    await d.during('waiting for the host IPAM lock', () => {
      inside = d.expired().message;
      return Promise.resolve();
    });
    expect(inside).toBe('timed out after 2 s (ipam.timeout_seconds) waiting for the host IPAM lock');
    expect(d.expired()).toMatchObject({ code: 11, message: 'timed out after 2 s (ipam.timeout_seconds) waiting for ADD to finish' });
  });
});

describe('runWithinDeadline', () => {
  it('answers code 11 naming the current activity when the work outlives the budget', async () => {
    const d = new CallDeadline(0.05, 'waiting for DEL to finish');
    const err = await failure(runWithinDeadline(d, () => d.during('waiting for the Kubernetes API to return pod ns/p', never)));
    expect(err).toMatchObject({ code: 11, message: 'timed out after 0.05 s (ipam.timeout_seconds) waiting for the Kubernetes API to return pod ns/p' });
  });

  it('answers with the work\'s result when it finishes within the budget', async () => {
    const d = new CallDeadline(10, 'x');
    expect(await runWithinDeadline(d, async () => await Promise.resolve(42))).toBe(42);
  });
});

describe('the deadlines arm no Node timer on a call that ends well (design/cni.md, "Deadline")', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('runWithinDeadline and withDeadline, settled in time, never call setTimeout, and calls add no beforeExit listener after the first', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const d = new CallDeadline(10, 'x');
    const answer = await runWithinDeadline(d, () => withDeadline(d, ALLOCATION_DEADLINE_MS, 'assigning addresses', async () => await Promise.resolve('ok')));
    expect(answer).toBe('ok');
    expect(timeout).not.toHaveBeenCalled();
    const listeners = process.listenerCount('beforeExit');
    for (let i = 0; i < 20; i++) await runWithinDeadline(new CallDeadline(10, 'x'), async () => await Promise.resolve(i));
    expect(process.listenerCount('beforeExit')).toBe(listeners);
    // A dry event loop now finds no call pending: no timer.
    process.emit('beforeExit', 0);
    expect(timeout).not.toHaveBeenCalled();
  });

  it('holds the process open with a timer for what is left of the budget when the event loop runs dry, and answers code 11 at its end', async () => {
    const clock = manualClock();
    const d = new CallDeadline(30, 'waiting for ADD to finish', clock.now);
    const pending = failure(runWithinDeadline(d, never));
    clock.advance(29_950);
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    // What Node does when nothing is left in the event loop: the call's alarm would not keep it alive.
    process.emit('beforeExit', 0);
    expect(timeout).toHaveBeenCalledTimes(1);
    expect(timeout.mock.calls[0]?.[1]).toBe(50);
    const held = timeout.mock.results[0]?.value as NodeJS.Timeout;
    expect(held.hasRef()).toBe(true);
    expect(await pending).toMatchObject({ code: 11, message: 'timed out after 30 s (ipam.timeout_seconds) waiting for ADD to finish' });
  });
});

describe('withDeadline with the call\'s deadline', () => {
  it('is capped by what is left of the call budget, not its own 90 s', async () => {
    const clock = manualClock();
    const d = new CallDeadline(50, 'x', clock.now);
    // The call's own timer is set for 50 s of real time; only the capped withDeadline can fire now.
    const err = await failure(
      runWithinDeadline(d, () => {
        clock.advance(49_990);
        return withDeadline(d, ALLOCATION_DEADLINE_MS, 'assigning addresses', never);
      }),
    );
    expect(err).toMatchObject({ code: 11, message: 'timed out after 50 s (ipam.timeout_seconds) waiting for the datastore while assigning addresses' });
  });

  it('keeps its own limit outside a call', async () => {
    const err = await failure(withDeadline(undefined, 20, 'reading pools', never));
    expect(err).toMatchObject({ code: 11, message: 'timed out after 0.02 s waiting for the datastore while reading pools' });
  });
});
