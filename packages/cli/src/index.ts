// The public API of @ipamkit/cli (design/architecture.md#public-api): the runner behind the `ipamkit` bin, and each
// command as a function returning structured results, for tests and the simulator.
export { runIpamCommand } from './run-ipam-command.js';
export type { CliIo, CommandContext, TextSink } from './cli-io.js';
export { datastoreConfigFromFlags, cliDatastoreOverrides, CLI_DATASTORE_FLAGS, openDatastore, type DatastoreFlags } from './open-datastore.js';
export { ipamShow, type ShowOptions, type ShowResult, type UtilizationRow } from './show/ipam-show.js';
export type { BorrowedRow } from './show/borrowed-allocations.js';
export { renderShow } from './show/render-show.js';
export { ipamCheck, clusterFingerprint, type CheckResult, type CheckedAllocation, type LeakedHandle } from './check/ipam-check.js';
export { checkReport, type CheckReport, type ReportAllocation } from './check/check-report.js';
export { renderCheck } from './check/render-check.js';
export { classifyAllocation, type Classification, type ClassifyContext, type Verdict } from './check/classify-allocation.js';
export type { AllocationRecord } from './check/allocation-record.js';
export type { Finding, FindingKind } from './check/structural-findings.js';
export { blockProblem } from './check/validate-block.js';
export { parseClusterState, readClusterState, type ClusterState, type PodInfo, type ServiceInfo } from './check/cluster-state.js';
export {
  ipamRelease,
  DEFAULT_MAX_REPORT_AGE_SECONDS,
  type ReleaseCommandOptions,
  type ReleaseResult,
  type IPOutcome,
  type HandleOutcome,
} from './release/ipam-release.js';
export { parseReport, type ParsedReport } from './release/read-reports.js';
export { mergeReports } from './release/merge-reports.js';
export { renderRelease } from './release/render-release.js';
export { ipamConfigure, renderConfigure, type ConfigureOptions, type ConfigureResult } from './configure/ipam-configure.js';
export { ipamSplit, renderSplit, splitCidr, type SplitOptions, type SplitResult } from './split/ipam-split.js';
export { explainIP, type IPExplanation } from './explain/explain-ip.js';
export { explainPod, type PodExplanation } from './explain/explain-pod.js';
export { explainNode, type NodeExplanation, type FamilyVerdict } from './explain/explain-node.js';
export { renderIPExplanation, renderPodExplanation, renderNodeExplanation } from './explain/render-explain.js';
export { migrateExport, readMigrationContents, type ExportOptions, type ExportResult } from './migrate/migrate-export.js';
export { migrateImport, kubernetesHandleCollisions, type ImportOptions, type ImportResult } from './migrate/migrate-import.js';
export type { Migration, MigrationContents, MigrationCounts } from './migrate/migration-contents.js';
export { decodeMigrationDocument, encodeMigrationDocument, MIGRATION_API_VERSION, MIGRATION_KIND } from './migrate/migration-document.js';
export { kubernetesNodeRenames } from './migrate/node-renames.js';
export { renameContents } from './migrate/rename-contents.js';
export { renderExport, renderImport } from './migrate/render-migrate.js';
export { formatG5, formatRoundHalfEven, formatCountWithPercent, INT64_MAX } from './format/go-number.js';
export { renderTable, type TableColumn, type Alignment } from './format/render-table.js';
export { prettyJson } from './format/pretty-json.js';
export * from './errors.js';
export { EXIT, exitCodeOf, type ExitCode } from './exit-codes.js';
export { CLI_VERSION } from './version.js';
