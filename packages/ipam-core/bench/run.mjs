// `npm run bench -w @ipamkit/ipam-core` (runs on the built package): per backend, the sequential
// datastore round trips of one steady-state AutoAssign (asserted against the issue's targets), and
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
const TARGETS = { sqlite: 1, etcd: 2, kubernetes: 4 };
const RATIO_GOAL = 0.8;
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function seed(ds) {
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/16', blockSize: 26 });
  await ds.nodes.create({ name: 'bench-node' });
}

/** Round trips of one AutoAssign of one IP into an existing affine block. */
async function steadyStateWaves(ds, options = {}) {
  await seed(ds);
  const counting = countingDatastore(ds, options);
  const ipam = createIpamClient({ datastore: counting.datastore });
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'warm', intendedUse: 'Workload' });
  counting.reset();
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'measured', intendedUse: 'Workload' });
  return counting.counts();
}

/** Serial CAS updates of one /26 block per second (the datastore's physical limit). */
async function rawCasRate(ds) {
  let current = await ds.blocks.create({
    cidr: '10.255.0.0/26',
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 64 }, (_, i) => i),
    attributes: [],
    sequenceNumber: 1_779_000_000_000_000_000n,
    sequenceNumberForAllocation: {},
    deleted: false,
  });
  for (let i = 0; i < 20; i++) current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  const t0 = performance.now();
  for (let i = 0; i < CAS_WRITES; i++) current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  return CAS_WRITES / ((performance.now() - t0) / 1000);
}

/** Sequential AutoAssign of one address each (handles distinct, blocks claimed as needed). */
async function allocationRate(ds) {
  await seed(ds);
  const ipam = createIpamClient({ datastore: ds });
  for (let i = 0; i < 10; i++) await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: `warm-${i}`, intendedUse: 'Workload' });
  const t0 = performance.now();
  for (let i = 0; i < ALLOCATIONS; i++) {
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: `h-${i}`, intendedUse: 'Workload' });
    if (ipv4?.ips.length !== 1) throw new Error(`allocation ${i} came back short: ${JSON.stringify(ipv4)}`);
  }
  return ALLOCATIONS / ((performance.now() - t0) / 1000);
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
  const dsRate = await open();
  const dsCas = await open();
  try {
    const counts = await steadyStateWaves(dsWaves, options);
    const allocPerSec = await allocationRate(dsRate);
    const casPerSec = await rawCasRate(dsCas);
    return { ...counts, allocPerSec, casPerSec, ratio: allocPerSec / casPerSec };
  } finally {
    await Promise.all([dsWaves.close(), dsRate.close(), dsCas.close()]);
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

console.log('backend     round trips (target)  transactions  allocations/s  raw CAS/s  ratio (goal ≥ 0.8)');
for (const [name, r] of Object.entries(results)) {
  if (r.skipped !== undefined) {
    console.log(`${name.padEnd(11)} skipped: ${r.skipped}`);
    continue;
  }
  const ok = r.waves <= TARGETS[name];
  failed ||= !ok;
  const rate = r.allocPerSec === undefined ? '-' : fmt(r.allocPerSec);
  const cas = r.casPerSec === undefined ? '-' : fmt(r.casPerSec);
  const ratio = r.ratio === undefined ? '-' : `${r.ratio.toFixed(2)}${r.ratio >= RATIO_GOAL ? '' : ' (below goal)'}`;
  console.log(`${name.padEnd(11)} ${`${r.waves} (≤ ${TARGETS[name]})${ok ? '' : ' MISSED'}`.padEnd(21)} ${String(r.transactions).padEnd(13)} ${rate.padEnd(14)} ${cas.padEnd(10)} ${ratio}`);
}
console.log(JSON.stringify({ bench: '@ipamkit/ipam-core', targets: TARGETS, ratioGoal: RATIO_GOAL, results }));
if (failed) process.exitCode = 1;
