/** One timed operation: when it finished (ms since the run started), how long it took, what it was. */
export interface LatencySample {
  readonly atMs: number;
  readonly ms: number;
  readonly op: 'add' | 'del';
}

/** The value at quantile q (0..1) of an ascending list; 0 for an empty list. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? 0;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}

/** Collects operation latencies against a monotonic clock started with the run. */
export class LatencyRecorder {
  readonly samples: LatencySample[] = [];
  private readonly t0 = performance.now();

  elapsedMs(): number {
    return performance.now() - this.t0;
  }

  /** Times `fn` and records it; the result or error passes through. */
  async time<T>(op: LatencySample['op'], fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      const end = performance.now();
      this.samples.push({ atMs: end - this.t0, ms: end - start, op });
    }
  }

  summary(op: LatencySample['op']): LatencySummary {
    return summarize(this.samples.filter((s) => s.op === op).map((s) => s.ms));
  }
}
