// The public API of @ipamkit/kube-runtime (design/kube-runtime.md). The reflector and the Lease
// elector are the `@ipamkit/kube-runtime/kubernetes` subpath, so this entry never loads the client.
export { type Logger, silentLogger, stderrLogger } from './logger.js';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from './metrics/metrics-server.js';
export { registerProcessMetrics } from './metrics/process-metrics.js';
export { untilAborted, withTimeout } from './until-aborted.js';
export { parseDuration } from './duration.js';
export { ControllerConfigError } from './errors.js';
export type { LeaderElector } from './runner/leader-elector.js';
export { COMMON_FLAGS } from './runner/flags.js';
export {
  runController,
  runControllerMain,
  type ControllerContext,
  type ControllerDefinition,
  type LeaseSettings,
  type RunnerIo,
  type RunningController,
} from './runner/run-controller.js';
