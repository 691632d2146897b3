// `npm run bench -w @ipamkit/ipam-datastore`: the physical CAS limits of each backend, on the
// built package (run the build first). Prints a human table and one JSON line for the root summary.
//
// The serial single-object CAS rate is what the ipam-core bench judges its allocation rate against.
// It is measured on two values: an empty /26 (0.7 KB: the historical figure, a small object) and a
// full /26 as the CNI leaves it (17 KB: realistic). Conditions, the same as the ipam-core bench's:
// one process, files under os.tmpdir(), synchronous=NORMAL unless the row says FULL.
//
// etcd: uses ETCD_ENDPOINTS (first endpoint) when set, else starts a throwaway etcd through
// @ipamkit/test-utils; `etcd-cas-bench.mjs` does the empty-block measuring. Without an
// etcd binary the etcd rows say why they are missing.
import { performance } from 'node:perf_hooks';
import { casLoop, fullBlock } from './bench-blocks.mjs';
import { benchEtcdCas } from './etcd-cas-bench.mjs';
import { benchSqliteCas } from './sqlite-cas-bench.mjs';

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ROUNDS = Number(process.env.IPAM_BENCH_ROUNDS ?? 3);
const SIZE = { empty: 'empty /26, 0.7 KB: a small object', full: 'full /26, 17 KB: realistic' };
const results = {};

/** Serial CAS rate as the median of ROUNDS runs, interleaving the two values so load hits both alike. */
async function serialSqlite(synchronous, values) {
  const runs = Object.fromEntries(values.map((v) => [v, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const value of r % 2 === 0 ? values : [...values].reverse()) {
      runs[value].push(await benchSqliteCas({ synchronous, value, serialWrites: value === 'full' ? 500 : 1_000, writers: 0 }));
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([v, rs]) => [
      v,
      { serialCasPerSecond: median(rs.map((x) => x.serialCasPerSecond)), serialCpuMicrosPerCas: median(rs.map((x) => x.serialCpuMicrosPerCas)), rounds: rs.length },
    ]),
  );
}

for (const synchronous of ['NORMAL', 'FULL']) {
  const values = synchronous === 'NORMAL' ? ['empty', 'full'] : ['empty'];
  const serial = await serialSqlite(synchronous, values);
  const concurrent = await benchSqliteCas({ synchronous, serialWrites: 200 });
  for (const value of values) {
    const s = serial[value];
    const r = { ...s, ...(value === 'empty' ? { writers: concurrent.writers, concurrentWrites: concurrent.concurrentWrites, concurrentCasPerSecond: concurrent.concurrentCasPerSecond } : {}) };
    results[`sqlite-${synchronous.toLowerCase()}${value === 'full' ? '-full-block' : ''}`] = r;
    console.log(
      `sqlite (synchronous=${synchronous}, os.tmpdir(), 1 process) ${SIZE[value]}: serial single-object ${fmt(s.serialCasPerSecond)} CAS/s ` +
        `(${fmt(s.serialCpuMicrosPerCas)} µs CPU/CAS, median of ${s.rounds})` +
        (r.writers === undefined ? '' : `; ${r.writers} concurrent writers (${r.writers} connections) ${fmt(r.concurrentCasPerSecond)} CAS/s over ${r.concurrentWrites} writes`),
    );
  }
}

async function etcdEndpoint() {
  const fromEnv = (process.env.ETCD_ENDPOINTS ?? '').split(',').map((e) => e.trim()).find((e) => e !== '');
  if (fromEnv !== undefined) return { endpoint: fromEnv, stop: async () => {} };
  const { startEtcd } = await import('@ipamkit/test-utils');
  const etcd = await startEtcd();
  return { endpoint: etcd.endpoint, stop: () => etcd.stop() };
}

/** Serial CAS of a full /26 through the etcd datastore (benchEtcdCas writes only the empty one). */
async function etcdFullBlock(endpoint) {
  const { createEtcdDatastore } = await import('../dist/etcd.js');
  const ds = createEtcdDatastore({ endpoints: [endpoint], prefix: `/ipamkit-bench-full-${process.pid}-${Date.now()}` });
  try {
    const rates = [];
    const cpus = [];
    let current = await casLoop(ds, await ds.blocks.create(fullBlock('10.0.0.0/26')), 20);
    for (let r = 0; r < ROUNDS; r++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      current = await casLoop(ds, current, 300);
      rates.push(300 / ((performance.now() - t0) / 1000));
      const cpu = process.cpuUsage(c0);
      cpus.push((cpu.user + cpu.system) / 300);
    }
    await ds.blocks.delete(current);
    return { serialCasPerSecond: median(rates), serialCpuMicrosPerCas: median(cpus), rounds: ROUNDS };
  } finally {
    await ds.close();
  }
}

let target;
try {
  target = await etcdEndpoint();
} catch (err) {
  results.etcd = { skipped: String(err?.message ?? err) };
  console.log(`etcd: skipped (${results.etcd.skipped})`);
}
if (target !== undefined) {
  try {
    const r = await benchEtcdCas({ endpoint: target.endpoint });
    results.etcd = r;
    console.log(
      `etcd ${SIZE.empty}: serial single-object ${fmt(r.serialCasPerSecond)} CAS/s over ${r.serialWrites} writes; ` +
        `${r.writers} concurrent writers ${fmt(r.concurrentCasPerSecond)} CAS/s over ${r.concurrentWrites} writes`,
    );
    const full = await etcdFullBlock(target.endpoint);
    results['etcd-full-block'] = full;
    console.log(`etcd ${SIZE.full}: serial single-object ${fmt(full.serialCasPerSecond)} CAS/s (${fmt(full.serialCpuMicrosPerCas)} µs CPU/CAS, median of ${full.rounds})`);
  } finally {
    await target.stop();
  }
}

console.log(JSON.stringify({ bench: '@ipamkit/ipam-datastore', unit: 'CAS writes/s', results }));
