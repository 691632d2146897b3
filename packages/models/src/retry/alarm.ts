/** A one-shot alarm: `cancel` keeps it from ringing; cancelling after it rang does nothing. */
export interface Alarm {
  cancel(): void;
}

/** `Atomics.waitAsync`'s shape (ES2024; this package compiles against ES2023's library). */
type WaitAsync = (cell: Int32Array, index: number, value: number, timeoutMs: number) => { async: boolean; value: Promise<string> | string };

const atomicsWaitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/**
 * Calls `ring` once, `ms` milliseconds from now, unless cancelled first. The alarm never keeps the
 * process alive, like an unref'd `setTimeout`: it rings while something else (a socket, a lock
 * wait, a sleep) holds the event loop open, and a process with nothing else to wait for exits
 * without it.
 *
 * Built on `Atomics.waitAsync` with a timeout, which V8 serves with one delayed task of Node's
 * platform, so that a short-lived process does not pay for Node's timer lists on its first timer
 * (their functions are compiled on first use: about 0.7 ms of a CNI call; design/models.md,
 * "Alarms"). Without `Atomics.waitAsync` an unref'd `setTimeout` does the same job.
 */
export function armAlarm(ms: number, ring: () => void): Alarm {
  return armAlarmWith(atomicsWaitAsync, ms, ring);
}

/** `armAlarm` on a given `Atomics.waitAsync` (or none): the fallback is tested through this. */
export function armAlarmWith(waitAsync: WaitAsync | undefined, ms: number, ring: () => void): Alarm {
  const delay = Number.isFinite(ms) ? Math.max(0, ms) : ms > 0 ? Infinity : 0;
  if (waitAsync === undefined) {
    if (delay === Infinity) return { cancel() {} };
    const timer = setTimeout(ring, delay);
    timer.unref();
    return {
      cancel() {
        clearTimeout(timer);
      },
    };
  }
  let armed = true;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const wait = waitAsync(cell, 0, 0, delay);
  const rang = (outcome: string): void => {
    if (armed && outcome === 'timed-out') {
      armed = false;
      ring();
    }
  };
  // A zero timeout is decided at once (`async: false`); it still rings after the caller's turn, as a timer would.
  if (typeof wait.value === 'string') void Promise.resolve(wait.value).then(rang);
  else void wait.value.then(rang);
  return {
    cancel() {
      if (!armed) return;
      armed = false;
      // Ends the wait ("ok"), so V8 drops the waiter instead of keeping it until the timeout.
      Atomics.notify(cell, 0);
    },
  };
}
