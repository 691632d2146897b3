// The public API of @ipamkit/sim (design/sim.md): the simulator, the hammer and their checks.
export { runSim, type SimHooks, type SimResult } from './run/run-sim.js';
export { RUN_DEFAULTS, resolveRunOptions, seededRandom, type RunOptions, type SimDatastoreType } from './run/run-options.js';
export { renderSummary } from './run/render-summary.js';
export { LatencyRecorder, quantile, summarize, type LatencySample, type LatencySummary } from './run/latency-recorder.js';
export { SIM_POOLS } from './run/sim-pools.js';
export { renderReport } from './report/render-report.js';
export { USE_COLOURS, useColour } from './report/heatmap-svg.js';
export { collectHeatmaps, type HeatmapCell, type PoolHeatmap } from './report/collect-heatmaps.js';
export { runHammer, hammerWorkerPath, type HammerResult } from './hammer/run-hammer.js';
export { HAMMER_DEFAULTS, resolveHammerOptions, type HammerOptions } from './hammer/hammer-options.js';
export { renderHammer } from './hammer/render-hammer.js';
export { finalCheck, type FinalCheckInput, type FinalCheckResult } from './checks/final-check.js';
export {
  allocatedAddresses,
  duplicateAddressViolations,
  handleCountViolations,
  orphanViolations,
  pendingAffinityViolations,
  type AllocatedAddress,
  type IpamSnapshot,
} from './checks/accounting-checks.js';
export { SequenceTracker } from './checks/sequence-tracker.js';
export { startLocalEtcd, type LocalEtcd } from './datastore/local-etcd.js';
export { main, USAGE } from './cli/main.js';
export { InvariantViolationError, SimConfigError, SimStepError } from './errors.js';
export { simDatastoreConfig, type SimDatastoreFlags } from './datastore/sim-datastore-config.js';
