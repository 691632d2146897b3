import { CNI_CODES, CniError } from '../errors.js';

/** Calico's allocation/release deadline, started after the host lock is held (spec/cni.md §14). */
export const ALLOCATION_DEADLINE_MS = 90_000;
/** Dual-stack rollback and pool resolution get their own, shorter, deadline. */
export const SHORT_DEADLINE_MS = 30_000;

/** Rejects with "try again later" (code 11) when `work` outlives `ms`. */
export async function withDeadline<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CniError(CNI_CODES.tryAgainLater, `timed out after ${ms / 1000} s: ${what}`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}
