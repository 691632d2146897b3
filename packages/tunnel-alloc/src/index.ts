// The public API of @ipamkit/tunnel-alloc (design/tunnel-alloc.md, "Public surface"): one reconcile pass,
// the daemon, the runner behind the bin, its datastore settings and its errors.
export {
  NodeNameMissingError,
  PoolCidrError,
  TunnelAddressParseError,
  TunnelAssignShortError,
  TunnelOptionError,
  TunnelReconcileError,
  type TunnelStep,
  TunnelStepError,
} from './errors.js';
export { type Logger } from '@ipamkit/models';
export {
  type ReconcileOptions,
  type ReconcileResult,
  reconcileTunnelAddresses,
  type TunnelDecision,
} from './reconcile-tunnel-addresses.js';
export { runTunnelAllocCli } from './run-cli.js';
export { type DaemonOptions, startTunnelAllocDaemon, type TunnelAllocDaemon } from './tunnel-alloc-daemon.js';
