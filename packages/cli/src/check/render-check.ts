import { renderTable } from '../format/render-table.js';
import type { CheckedAllocation, CheckResult } from './ipam-check.js';

const LIVE = new Set(['workload', 'tunnel', 'load-balancer']);

function allocationRow(a: CheckedAllocation): string[] {
  return [a.ip, a.handle ?? '<none>', a.sequenceNumber.toString(), a.classification, a.releasable ? 'yes' : 'no', a.reason];
}

/** The terminal text of a check; allocations held by live owners are listed only with `showAll`. */
export function renderCheck(result: CheckResult, options: { showAll?: boolean } = {}): string {
  const { counts } = result;
  const lines = ['Checking IPAM for inconsistencies...', ''];
  lines.push(`Found ${counts.blocks} IPAM blocks recording ${counts.allocations} allocations.`);
  lines.push(`Found ${counts.activePools} active IP pools and ${counts.nodes} nodes.`);
  lines.push(counts.pods === undefined ? 'No pod list given: pod addresses are unverified.' : `Checked against ${counts.pods} pods.`);
  lines.push(
    counts.services === undefined ? 'No service list given: LoadBalancer addresses are unverified.' : `Checked against ${counts.services} services.`,
  );
  const shown = options.showAll === true ? result.allocations : result.allocations.filter((a) => !LIVE.has(a.classification));
  let out = `${lines.join('\n')}\n\n`;
  out += renderTable(
    ['IP', 'HANDLE', 'SEQUENCE', 'CLASSIFICATION', 'RELEASABLE', 'REASON'].map((header) => ({ header })),
    shown.map(allocationRow),
  );
  out += '\n';
  out += renderTable(
    ['FINDING', 'SUBJECT', 'REASON'].map((header) => ({ header })),
    result.findings.map((f) => [f.kind, f.subject, f.problem ? f.reason : `${f.reason} (informational)`]),
  );
  return `${out}\nCheck complete; found ${result.problems} problems.\n`;
}
