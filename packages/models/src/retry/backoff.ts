/**
 * Exponential backoff with jitter (design/models.md, "Retry"): the wait before retry n (0-based) is
 * drawn uniformly from [(1 − jitter) × ceiling, ceiling), where ceiling = min(capMs, baseMs × 2^n).
 */
export interface Backoff {
  /** The ceiling of the first wait; it doubles for each retry after. */
  readonly baseMs: number;
  /** No wait exceeds this. */
  readonly capMs: number;
  /** Share of each wait drawn at random: 0 waits the ceiling exactly, 1 is full jitter. Default 0. */
  readonly jitter?: number;
}

/** The wait before retry `retryIndex` (0-based); `random` is a uniform [0, 1) source. */
export function backoffDelay(backoff: Backoff, retryIndex: number, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(retryIndex, 52));
  const jitter = backoff.jitter ?? 0;
  return Math.max(0, Math.min(ceiling, ceiling * (1 - jitter + jitter * random())));
}
