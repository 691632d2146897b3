// The public API of @ipamkit/kube-runtime (design/kube-runtime.md): what a leader-elected controller's
// bin needs. The reflector and the Lease elector are the `@ipamkit/kube-runtime/kubernetes` subpath, so
// this entry never loads the client. Tests reach the rest by path.
export { type Logger, silentLogger } from './logger.js';
export { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';
export { parseDuration } from './duration.js';
export type { LeaderElector } from './runner/leader-elector.js';
export { COMMON_FLAGS } from './runner/flags.js';
export {
  runControllerMain,
  type ControllerContext,
  type ControllerDefinition,
  type LeaseSettings,
  type RunningController,
} from './runner/run-controller.js';
