import { armAlarm, type Alarm } from '@ipamkit/models';
import { CNI_CODES, CniError } from '../errors.js';
import type { CallDeadline } from './call-deadline.js';

/**
 * Calico's allocation/release deadline. Inside a CNI call it is capped by what is left of the
 * call's one budget (design/cni.md, "Deadline"), so it never adds to the lock wait.
 */
export const ALLOCATION_DEADLINE_MS = 90_000;
/** Dual-stack rollback and pool resolution get their own, shorter, deadline. */
export const SHORT_DEADLINE_MS = 30_000;

/**
 * Rejects with "try again later" (code 11) when `work` outlives `ms` or the call's budget,
 * whichever ends first; the message names `what` it was waiting for.
 */
export async function withDeadline<T>(call: CallDeadline | undefined, ms: number, what: string, work: () => Promise<T>): Promise<T> {
  const limit = call === undefined ? ms : Math.min(ms, call.remainingMs());
  const activity = `waiting for the datastore while ${what}`;
  let alarm: Alarm | undefined;
  const expired = new Promise<never>((_, reject) => {
    const error = (): CniError =>
      call !== undefined && limit < ms ? call.expired(activity) : new CniError(CNI_CODES.tryAgainLater, `timed out after ${ms / 1000} s ${activity}`);
    // An alarm, not a timer: it never keeps the process alive either, and costs no timer lists
    // (design/cni.md, "Deadline").
    alarm = armAlarm(limit, () => reject(error()));
  });
  try {
    return await Promise.race([call === undefined ? work() : call.during(activity, work), expired]);
  } finally {
    alarm?.cancel();
  }
}
