// `npm run bench -w @ipamkit/sim` (on the built package): a simulated cluster per backend, measuring
// what the whole stack does end to end — CNI ADD latency, allocations per second, datastore round
// trips per ADD, GC settle time and the utilization read — and the hammer's operation rate.
// Prints a table and one JSON line. Sizes: SIM_BENCH_NODES, SIM_BENCH_PODS, SIM_BENCH_HAMMER_OPS.
import { runHammer, runSim } from '../dist/index.js';

const NODES = Number(process.env.SIM_BENCH_NODES ?? 20);
const PODS = Number(process.env.SIM_BENCH_PODS ?? 400);
const HAMMER_OPS = Number(process.env.SIM_BENCH_HAMMER_OPS ?? 1000);

const results = {};
for (const datastore of ['sqlite', 'etcd']) {
  const r = await runSim({ nodes: NODES, pods: PODS, churn: 2, datastore, services: 8, gracePeriodMs: 1000 });
  results[datastore] = {
    adds: r.stats.adds,
    allocationsPerSecond: r.allocationsPerSecond,
    roundTripsPerAdd: r.roundTripsPerAdd,
    addLatencyMs: r.latency.add,
    delLatencyMs: r.latency.del,
    settleMs: r.settleMs,
    utilizationMs: r.utilizationMs,
    violations: r.check.violations.length,
  };
}
const hammer = await runHammer({ processes: 8, ops: HAMMER_OPS, killRate: 0.01, gracePeriodMs: 1000 });
results.hammerSqlite = { ops: HAMMER_OPS, opsPerSecond: hammer.opsPerSecond, kills: hammer.kills, violations: hammer.violations.length };

console.log(`sim: ${NODES} nodes, ${PODS} pods x churn 2`);
console.log('backend  ADD/s    round trips/ADD  ADD p50   ADD p99   utilization  violations');
for (const name of ['sqlite', 'etcd']) {
  const r = results[name];
  console.log(
    `${name.padEnd(8)} ${r.allocationsPerSecond.toFixed(1).padEnd(8)} ${String(r.roundTripsPerAdd?.toFixed(2)).padEnd(16)} ${r.addLatencyMs.p50.toFixed(1).padEnd(9)} ${r.addLatencyMs.p99.toFixed(1).padEnd(9)} ${r.utilizationMs.toFixed(1).padEnd(12)} ${r.violations}`,
  );
}
console.log(`hammer (sqlite, 8 processes): ${results.hammerSqlite.opsPerSecond.toFixed(1)} ops/s, ${hammer.kills} kills, ${hammer.violations.length} violations`);
console.log(JSON.stringify({ bench: '@ipamkit/sim', nodes: NODES, pods: PODS, results }));
if (Object.values(results).some((r) => r.violations > 0)) process.exitCode = 1;
