import { collectDefaultMetrics, type Registry } from 'prom-client';

const registered = new WeakSet<Registry>();

/**
 * Process and runtime metrics (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
 * `process_start_time_seconds`, `nodejs_heap_size_used_bytes`, `nodejs_eventloop_lag_seconds`, ...)
 * on `registry`, once per registry: prom-client refuses a second registration of the same names.
 */
export function registerProcessMetrics(registry: Registry): void {
  if (registered.has(registry)) return;
  collectDefaultMetrics({ register: registry });
  registered.add(registry);
}
