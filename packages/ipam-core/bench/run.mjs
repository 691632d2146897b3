// `npm run bench -w @ipamkit/ipam-core` (runs on the built package): per backend, the sequential
// datastore round trips of one steady-state AutoAssign (asserted against the targets), and
// AutoAssign allocations per second against the raw serial CAS rate of the same datastore (the
// method of the ipam-datastore bench: one /26 block CAS-updated in a loop). Prints a table and one
// JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { countingDatastore, createIpamClient } from '../dist/index.js';

const ALLOCATIONS = Number(process.env.IPAM_BENCH_ALLOCATIONS ?? 1000);
const CAS_WRITES = Number(process.env.IPAM_BENCH_CAS_WRITES ?? 1000);
const PARALLEL = Number(process.env.IPAM_BENCH_PARALLEL ?? 8);
const TARGETS = { sqlite: 1, etcd: 2, kubernetes: 4 };
const RATIO_GOAL = 0.8;
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function seedOne(ds) {
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/16', blockSize: 26 });
  await ds.nodes.create({ name: 'bench-node' });
}

/** Round trips of one AutoAssign of one IP into an existing affine block. */
async function steadyStateWaves(ds, options = {}) {
  await seedOne(ds);
  const counting = countingDatastore(ds, options);
  const ipam = createIpamClient({ datastore: counting.datastore });
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'warm', intendedUse: 'Workload' });
  counting.reset();
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'measured', intendedUse: 'Workload' });
  return counting.counts();
}

function benchBlock(cidr) {
  return {
    cidr,
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 64 }, (_, i) => i),
    attributes: [],
    sequenceNumber: 1_779_000_000_000_000_000n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/** CAS updates per second, `writers` loops in parallel, each on its own /26 block (the datastore bench's method). */
async function rawCasRate(ds, writers) {
  const per = Math.ceil(CAS_WRITES / writers);
  const loop = async (i, count) => {
    let current = await ds.blocks.create(benchBlock(`10.255.${i}.0/26`));
    for (let k = 0; k < count; k++) current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  };
  await loop(200, 20);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: writers }, (_, i) => loop(i, per)));
  return (per * writers) / ((performance.now() - t0) / 1000);
}

/**
 * Pod churn on `hosts` nodes in parallel (one client each, as separate CNI processes would be):
 * AutoAssign one address per pod, and release the oldest pod once a node holds 100. Only the
 * AutoAssign calls are timed; the rate is allocations per second of wall time spent in them.
 */
async function allocationRate(ds, hosts) {
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/16', blockSize: 26 });
  const per = Math.ceil(ALLOCATIONS / hosts);
  const nodes = Array.from({ length: hosts }, (_, h) => `bench-node-${h}`);
  for (const name of nodes) await ds.nodes.create({ name });
  let assignMs = 0;
  const run = async (node, count, timed) => {
    const ipam = createIpamClient({ datastore: ds });
    const live = [];
    for (let i = 0; i < count; i++) {
      const handleId = `${node}-${timed ? 'h' : 'w'}-${i}`;
      const t0 = performance.now();
      const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: node, handleId, intendedUse: 'Workload' });
      if (timed) assignMs += performance.now() - t0;
      if (ipv4?.ips.length !== 1) throw new Error(`allocation ${i} came back short: ${JSON.stringify(ipv4)}`);
      live.push(handleId);
      if (live.length > 100) await ipam.releaseByHandle(live.shift());
    }
  };
  await Promise.all(nodes.map((n) => run(n, 5, false)));
  const t0 = performance.now();
  await Promise.all(nodes.map((n) => run(n, per, true)));
  const wall = performance.now() - t0;
  // Parallel clients overlap: scale the summed AutoAssign time to its share of the wall time.
  return (per * hosts) / ((Math.min(assignMs / hosts, wall)) / 1000);
}

const tmp = mkdtempSync(join(tmpdir(), 'ipam-core-bench-'));
let n = 0;
const sqlite = () => createDatastore({ type: 'sqlite', path: join(tmp, `bench-${n++}.db`) });
let etcd;
async function etcdDatastore() {
  if (etcd === undefined) {
    const fromEnv = (process.env.ETCD_ENDPOINTS ?? '').split(',').map((e) => e.trim()).find((e) => e !== '');
    if (fromEnv !== undefined) etcd = { endpoint: fromEnv, stop: async () => {} };
    else {
      const { startEtcd } = await import('@ipamkit/test-utils');
      etcd = await startEtcd();
    }
  }
  return createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix: `/bench-${process.pid}-${n++}` });
}

async function measure(open, options) {
  const dsWaves = await open();
  const stores = [dsWaves];
  try {
    const counts = await steadyStateWaves(dsWaves, options);
    const rates = {};
    for (const parallel of [1, PARALLEL]) {
      const dsRate = await open();
      const dsCas = await open();
      stores.push(dsRate, dsCas);
      const allocPerSec = await allocationRate(dsRate, parallel);
      const casPerSec = await rawCasRate(dsCas, parallel);
      rates[parallel === 1 ? 'serial' : `parallel${parallel}`] = { allocPerSec, casPerSec, ratio: allocPerSec / casPerSec };
    }
    return { ...counts, ...rates };
  } finally {
    await Promise.all(stores.map((ds) => ds.close()));
  }
}

const results = {};
let failed = false;
try {
  results.sqlite = await measure(sqlite);
  try {
    results.etcd = await measure(etcdDatastore);
  } catch (err) {
    results.etcd = { skipped: String(err?.message ?? err) };
  }
  // Kubernetes has no transactions: a memory datastore with transact hidden, counted as kubernetes.
  const kube = await steadyStateWaves(await createDatastore({ type: 'memory' }), { asKind: 'kubernetes', withoutTransact: true });
  results.kubernetes = kube;
} finally {
  await etcd?.stop();
  rmSync(tmp, { recursive: true, force: true });
}

console.log('backend     round trips (target)  transactions  mode        allocations/s  raw CAS/s  ratio (goal ≥ 0.8)');
for (const [name, r] of Object.entries(results)) {
  if (r.skipped !== undefined) {
    console.log(`${name.padEnd(11)} skipped: ${r.skipped}`);
    continue;
  }
  const ok = r.waves <= TARGETS[name];
  failed ||= !ok;
  const trips = `${r.waves} (≤ ${TARGETS[name]})${ok ? '' : ' MISSED'}`;
  const modes = Object.entries(r).filter(([, v]) => typeof v === 'object' && v !== null && 'allocPerSec' in v);
  if (modes.length === 0) console.log(`${name.padEnd(11)} ${trips.padEnd(21)} ${String(r.transactions).padEnd(13)} -`);
  for (const [mode, m] of modes) {
    const ratio = `${m.ratio.toFixed(2)}${m.ratio >= RATIO_GOAL ? '' : ' (below goal)'}`;
    console.log(`${name.padEnd(11)} ${trips.padEnd(21)} ${String(r.transactions).padEnd(13)} ${mode.padEnd(11)} ${fmt(m.allocPerSec).padEnd(14)} ${fmt(m.casPerSec).padEnd(10)} ${ratio}`);
  }
}
console.log(JSON.stringify({ bench: '@ipamkit/ipam-core', targets: TARGETS, ratioGoal: RATIO_GOAL, results }));
if (failed) process.exitCode = 1;
