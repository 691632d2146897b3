import type { SimResult } from './run-sim.js';

const ms = (v: number): string => `${v.toFixed(1)}ms`;

/** The end-of-run text: summary, the `ipam show` table, and the check verdict. */
export function renderSummary(r: SimResult): string {
  const o = r.options;
  const lines = [
    `ipamkit-sim run: ${o.nodes} nodes, ${o.pods} pods x churn ${o.churn} on ${o.datastore}${o.spawn ? ' (calico-ipam bin per call)' : ''} in ${(r.durationMs / 1000).toFixed(1)}s`,
    `  operations      ${r.stats.adds} ADD, ${r.stats.dels} DEL, ${r.stats.lostDeletes} lost DEL (left to the GC), ${r.stats.failures} failed`,
    `  cluster         ${r.tunnelAddresses} tunnel addresses, ${r.servicesCreated} LoadBalancer Services (${r.servicesDeleted} deleted), ${r.nodesDeleted} nodes deleted`,
    `  allocations/s   ${r.allocationsPerSecond.toFixed(1)} (churn phase ${(r.churnMs / 1000).toFixed(1)}s)`,
    `  ADD latency     p50 ${ms(r.latency.add.p50)}  p90 ${ms(r.latency.add.p90)}  p99 ${ms(r.latency.add.p99)}  max ${ms(r.latency.add.max)}`,
    `  DEL latency     p50 ${ms(r.latency.del.p50)}  p90 ${ms(r.latency.del.p90)}  p99 ${ms(r.latency.del.p99)}  max ${ms(r.latency.del.max)}`,
    `  round trips/ADD ${r.roundTripsPerAdd === undefined ? 'n/a (spawned bin)' : r.roundTripsPerAdd.toFixed(2)}`,
    `  GC settled in   ${ms(r.settleMs)}`,
    '',
    'ipam show:',
    r.showTable.trimEnd(),
    '',
    `ipam check: ${r.check.allocations} allocations, ${r.check.leaks} leaked, ${r.check.duplicates} duplicated, ${r.check.check.problems} problem(s)`,
  ];
  if (r.check.violations.length === 0) lines.push('RESULT: OK — no leak, no duplicate, every invariant holds');
  else lines.push(`RESULT: FAILED — ${r.check.violations.length} violation(s):`, ...r.check.violations.map((v) => `  - ${v}`));
  return `${lines.join('\n')}\n`;
}
