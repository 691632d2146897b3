import { renderTable } from '../format/render-table.js';
import type { Classification } from './classify-allocation.js';
import type { CheckedAllocation, CheckResult } from './ipam-check.js';
import type { Finding, FindingKind } from './structural-findings.js';

/** Summary order: problems first, then what needs no action (design/cli.md "check output"). */
const CLASS_ORDER: readonly Classification[] = [
  'leak',
  'completed-pod',
  'duplicate',
  'unverified',
  'cooldown',
  'windows-reserved',
  'workload',
  'tunnel',
  'load-balancer',
];

const FINDING_ORDER: readonly FindingKind[] = [
  'integrity',
  'invalid-block',
  'short-allocations',
  'block-without-affinity',
  'affinity-without-block',
  'leaked-handle',
  'handle-drift',
  'missing-handle',
  'in-use-without-allocation',
  'in-use-outside-pools',
];

const isProblem = (a: CheckedAllocation): boolean => a.releasable || a.classification === 'duplicate';

function allocationRow(a: CheckedAllocation): string[] {
  return [a.ip, a.handle ?? '<none>', a.sequenceNumber.toString(), a.classification, a.releasable ? 'yes' : 'no', a.reason];
}

function findingRow(f: Finding): string[] {
  return [f.kind, f.subject, f.problem ? f.reason : `${f.reason} (informational)`];
}

/** One row per class present: how many allocations or findings, and how many count as problems. */
function summaryRows(result: CheckResult): string[][] {
  const rows: string[][] = [];
  for (const kind of CLASS_ORDER) {
    const of = result.allocations.filter((a) => a.classification === kind);
    if (of.length === 0) continue;
    // Problems count distinct addresses, as the total does: a duplicate in two blocks is one problem.
    rows.push([kind, String(of.length), String(new Set(of.filter(isProblem).map((a) => a.ip)).size)]);
  }
  for (const kind of FINDING_ORDER) {
    const of = result.findings.filter((f) => f.kind === kind);
    if (of.length > 0) rows.push([kind, String(of.length), String(of.filter((f) => f.problem).length)]);
  }
  return rows;
}

/**
 * The terminal text of a check (design/cli.md "check output"): a summary by class, then the rows of
 * the problems; with `showAll`, every allocation and every finding.
 */
export function renderCheck(result: CheckResult, options: { showAll?: boolean } = {}): string {
  const { counts } = result;
  const showAll = options.showAll === true;
  const lines = ['Checking IPAM for inconsistencies...', ''];
  lines.push(`Found ${counts.blocks} IPAM blocks recording ${counts.allocations} allocations.`);
  lines.push(`Found ${counts.activePools} active IP pools and ${counts.nodes} nodes.`);
  lines.push(counts.pods === undefined ? 'No pod list given: pod addresses are unverified.' : `Checked against ${counts.pods} pods.`);
  lines.push(
    counts.services === undefined ? 'No service list given: LoadBalancer addresses are unverified.' : `Checked against ${counts.services} services.`,
  );
  let out = `${lines.join('\n')}\n\n`;
  out += renderTable([{ header: 'CLASS' }, { header: 'COUNT', align: 'right' as const }, { header: 'PROBLEMS', align: 'right' as const }], summaryRows(result));
  const allocations = showAll ? result.allocations : result.allocations.filter(isProblem);
  const findings = showAll ? result.findings : result.findings.filter((f) => f.problem);
  if (allocations.length > 0) {
    out += '\n';
    out += renderTable(['IP', 'HANDLE', 'SEQUENCE', 'CLASSIFICATION', 'RELEASABLE', 'REASON'].map((header) => ({ header })), allocations.map(allocationRow));
  }
  if (findings.length > 0) {
    out += '\n';
    out += renderTable(['FINDING', 'SUBJECT', 'REASON'].map((header) => ({ header })), findings.map(findingRow));
  }
  const hidden = result.allocations.length - allocations.length + result.findings.length - findings.length;
  if (hidden > 0) out += `\n${hidden} allocations and findings that are not problems are counted above; --show-all-ips lists them.\n`;
  return `${out}\nCheck complete; found ${result.problems} problems.\n`;
}
