import { RETRY_BASE_MS, RETRY_BUCKET_BURST, RETRY_BUCKET_RATE_PER_S, RETRY_MAX_MS } from '../constants.js';

/**
 * Backoff for failed passes (design/calico-callers.md#gc-loop): the larger of an exponential delay (5 ms doubling
 * to 30 s) and a token bucket (10/s, burst 100). At most one retry is pending; success resets the
 * exponent.
 */
export class RetryController {
  private failures = 0;
  private tokens = RETRY_BUCKET_BURST;
  private lastRefillMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly fire: () => void,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.lastRefillMs = nowMs();
  }

  /** The delay the next retry would wait, advancing the backoff state. */
  nextDelayMs(): number {
    const exponential = Math.min(RETRY_BASE_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures++;
    const now = this.nowMs();
    this.tokens = Math.min(RETRY_BUCKET_BURST, this.tokens + ((now - this.lastRefillMs) / 1000) * RETRY_BUCKET_RATE_PER_S);
    this.lastRefillMs = now;
    this.tokens -= 1;
    const bucket = this.tokens >= 0 ? 0 : (-this.tokens / RETRY_BUCKET_RATE_PER_S) * 1000;
    return Math.max(exponential, bucket);
  }

  scheduleRetry(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.nextDelayMs());
  }

  success(): void {
    this.failures = 0;
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
