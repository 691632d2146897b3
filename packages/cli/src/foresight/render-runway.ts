import type { RunwayReport } from '@ipamkit/ipam-core';
import { renderTable } from '../format/render-table.js';

/** `45m`, `3.2h`, `4.5d`: how far away a failure is at the given rate. */
export function formatHours(hours: number | undefined): string {
  if (hours === undefined) return '-';
  if (hours < 1) return `${Math.round(hours * 60)}m`;
  if (hours < 48) return `${(Math.round(hours * 10) / 10).toString()}h`;
  return `${(Math.round((hours / 24) * 10) / 10).toString()}d`;
}

const count = (n: number | bigint | undefined): string => (n === undefined ? '-' : n.toString());

function header(report: RunwayReport): string {
  const cap = report.nodes[0]?.families[0]?.blockCap;
  const rate =
    report.rate === undefined
      ? 'no rate given (--rate or --history): steps only'
      : `rate ${(Math.round(report.rate.podsPerHour * 100) / 100).toString()} pods/hour from ${report.rate.source === 'flag' ? '--rate' : `a history of ${count(report.rate.samples)} allocations`}`;
  return `Runway at ${report.now} (IPv${report.ipVersions.join('+IPv')}; strict affinity ${report.strictAffinity ? 'on' : 'off'}; block cap ${count(cap)}; ${rate})\n`;
}

function firstFailureLine(report: RunwayReport): string {
  const first = report.firstFailure;
  if (first === undefined) {
    return report.truncated
      ? `No allocation failed within the planner's step budget (${report.placedInFill} pods placed); the counts are lower bounds.\n`
      : report.podsPerNode === undefined
        ? 'No allocation fails.\n'
        : `Every node reaches ${report.podsPerNode} pods.\n`;
  }
  const when = report.hoursUntilFirstFailure === undefined ? '' : ` (in ${formatHours(report.hoursUntilFirstFailure)})`;
  return `First failure: ${first.node} after ${first.afterPods} more pods${when}, filling every node in turn: IPv${first.version}: ${first.failure.reason}\n`;
}

/** The runway as two tables (nodes, pools) and each node's limit in explain's words. */
export function renderRunway(report: RunwayReport): string {
  const nodeRows = report.nodes.map((n) => [
    n.node + (n.windows ? ' (windows)' : ''),
    n.families.map((f) => `${f.affineBlocks}/${f.blockCap}`).join(' '),
    n.families.map((f) => f.freeInAffineBlocks.toString()).join(' '),
    n.alone.toString(),
    n.inFill.toString(),
    count(n.failsAfterPods),
    formatHours(n.hoursUntilFailure),
    n.limit ?? '-',
  ]);
  const poolRows = report.pools.map((p) => [
    p.pool,
    p.cidr,
    p.blockSize.toString(),
    p.enabled ? 'yes' : 'no',
    p.nodesSelected.toString(),
    p.available.toString(),
    p.placedInFill.toString(),
    p.strandedAfterFill.toString(),
    count(p.exhaustedAfterPods),
    formatHours(p.hoursUntilExhausted),
  ]);
  const reasons = report.nodes.map((n) => `  ${n.node}: ${n.reason}\n`).join('');
  return [
    header(report),
    firstFailureLine(report),
    renderTable(
      [
        { header: 'node' },
        { header: 'affine blocks/cap' },
        { header: 'free in them', align: 'right' },
        { header: 'more pods alone', align: 'right' },
        { header: 'pods in fill', align: 'right' },
        { header: 'fails after', align: 'right' },
        { header: 'in', align: 'right' },
        { header: 'limit' },
      ],
      nodeRows,
    ),
    renderTable(
      [
        { header: 'pool' },
        { header: 'cidr' },
        { header: 'block size', align: 'right' },
        { header: 'enabled' },
        { header: 'nodes', align: 'right' },
        { header: 'available', align: 'right' },
        { header: 'taken in fill', align: 'right' },
        { header: 'unreachable', align: 'right' },
        { header: 'exhausted after', align: 'right' },
        { header: 'in', align: 'right' },
      ],
      poolRows,
    ),
    `What ends each node's runway on its own:\n${reasons}`,
  ].join('');
}
