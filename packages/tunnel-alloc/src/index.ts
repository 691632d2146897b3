// The public API of @ipamkit/tunnel-alloc (design/tunnel-alloc.md).

// Handle and attribute constants: re-exported for callers; the source of truth is @ipamkit/models.
export {
  TUNNEL_ATTRIBUTE_TYPES,
  TUNNEL_HANDLE_PREFIXES,
  TUNNEL_TYPES,
  parseTunnelHandleId,
  tunnelHandleId,
  type TunnelType,
} from '@ipamkit/models';

export { TUNNEL_KINDS, RECONCILE_ORDER, tunnelAttributes, tunnelHandleOf, type TunnelKind } from './tunnel-kinds.js';
export { qualifyingPoolCidrs, type PoolSkipReason, type QualifyingPoolsArgs } from './qualifying-pools.js';
export { wireguardEnabled, WIREGUARD_SETTINGS, type WireguardOptions, type WireguardSetting } from './wireguard-enablement.js';
export { tunnelAddressOf, withTunnelAddress, sameTunnelAddresses } from './node-tunnel-fields.js';
export { ensureTunnelAddress, type EnsureOutcome, type EnsureResult } from './ensure-tunnel-address.js';
export { removeTunnelAddress, type RemoveOutcome, type RemoveResult } from './remove-tunnel-address.js';
export type { TunnelContext } from './tunnel-context.js';
export {
  reconcileTunnelAddresses,
  type ReconcileOptions,
  type ReconcileResult,
  type TunnelDecision,
} from './reconcile-tunnel-addresses.js';
export { ReconcileScheduler } from './reconcile-scheduler.js';
export { TriggerFilter } from './trigger-filter.js';
export { startTunnelAllocDaemon, type DaemonOptions, type TunnelAllocDaemon } from './tunnel-alloc-daemon.js';
export { runTunnelAllocCli, envFlag, type CliIO } from './run-cli.js';
export { silentLogger, jsonLineLogger, type Logger } from '@ipamkit/models';
export {
  NodeNameMissingError,
  PoolCidrError,
  TunnelAddressParseError,
  TunnelAssignShortError,
  TunnelOptionError,
  TunnelReconcileError,
  TunnelStepError,
  type TunnelStep,
} from './errors.js';
export { tunnelDatastoreConfig } from './datastore-config.js';
