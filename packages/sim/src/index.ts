// The public API of @ipamkit/sim (design/sim.md, "Public surface"): the simulator, the hammer, their
// renderers and the runner behind the `ipamkit-sim` bin.
export { main, USAGE } from './cli/main.js';
export { simDatastoreConfig, type SimDatastoreFlags } from './datastore/sim-datastore-config.js';
export { SimConfigError, SimStepError } from './errors.js';
export { HAMMER_DEFAULTS, type HammerOptions, resolveHammerOptions } from './hammer/hammer-options.js';
export { renderHammer } from './hammer/render-hammer.js';
export { type HammerResult, runHammer } from './hammer/run-hammer.js';
export { renderReport } from './report/render-report.js';
export { renderSummary } from './run/render-summary.js';
export { resolveRunOptions, RUN_DEFAULTS, type RunOptions } from './run/run-options.js';
export { runSim, type SimHooks, type SimResult } from './run/run-sim.js';
