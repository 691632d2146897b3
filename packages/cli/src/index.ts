// The public API of @ipamkit/cli (design/cli.md, "Public surface"): the runner behind the `ipamkit` bin,
// the commands the simulator drives in-process, and the errors and exit codes a caller can test for.
export { type ClusterState, type PodInfo, type ServiceInfo } from './check/cluster-state.js';
export { type CheckResult, ipamCheck } from './check/ipam-check.js';
export { blockProblem } from './check/validate-block.js';
export { type CliIo, type CommandContext, type TextSink } from './cli-io.js';
export {
  AddressInCooldownError,
  AddressNotAssignedError,
  CliUsageError,
  DatastoreMissingError,
  InputFileError,
  InvalidIPArgumentError,
  MigrationImportError,
  MigrationRejectedError,
  ReportRejectedError,
} from './errors.js';
export { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
export { datastoreConfigFromFlags, type DatastoreFlags } from './open-datastore.js';
export { runIpamCommand } from './run-ipam-command.js';
export { ipamShow, type ShowOptions, type ShowResult } from './show/ipam-show.js';
export { renderShow } from './show/render-show.js';
export { CLI_VERSION } from './version.js';
