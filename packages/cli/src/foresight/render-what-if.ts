import type { WhatIfResult } from './ipam-what-if.js';
import { formatHours, renderRunway } from './render-runway.js';

function firstFailureSummary(label: string, report: WhatIfResult['before']): string {
  const first = report.firstFailure;
  if (first === undefined) return `${label}: no allocation fails${report.truncated ? ' within the step budget' : ''}\n`;
  const when = report.hoursUntilFirstFailure === undefined ? '' : ` (in ${formatHours(report.hoursUntilFirstFailure)})`;
  return `${label}: first failure on ${first.node} after ${first.afterPods} more pods${when} (${first.failure.limit})\n`;
}

/** The change, before and after in one line each, the nodes left unable to allocate, then the full runway after. */
export function renderWhatIf(result: WhatIfResult): string {
  const unable =
    result.unableToAllocate.length === 0
      ? 'Every node can still allocate.\n'
      : `Nodes unable to allocate:\n${result.unableToAllocate.map((u) => `  ${u.node} (${u.pods} pods): ${u.reason}\n`).join('')}`;
  return [
    `What if: ${result.changes.join('; ')} (nothing was written)\n`,
    firstFailureSummary('Now', result.before),
    firstFailureSummary('After', result.after),
    unable,
    '\n',
    renderRunway(result.after),
  ].join('');
}
