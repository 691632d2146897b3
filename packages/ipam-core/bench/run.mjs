// `npm run bench -w @ipamkit/ipam-core` (runs on the built packages): per backend, the sequential
// datastore round trips of one steady-state AutoAssign (asserted against the targets), and
// AutoAssign allocations per second against the raw serial single-object CAS rate of the same
// datastore, measured the way the ipam-datastore bench measures it (its bench/bench-blocks.mjs).
//
// Like with like: both sides run in this one process, on the same backend, with one connection per
// datastore, SQLite files under os.tmpdir() with synchronous=NORMAL (the datastore bench's default
// row), and they are measured in interleaved rounds (alternating order) so that the load of a shared
// machine hits both alike; rates are medians over the rounds, the ratio is the median of the
// per-round ratios, and CPU time per operation (process.cpuUsage) is reported beside wall time.
//
// The physical limit of an allocation is the CAS write of the block it changes, so the goal is
// judged against serial CAS writes of the very block values the allocation run writes (taken once
// the run is in its steady state, each node holding 100 pods, and written round-robin by one
// writer). The datastore bench's fixed values are reported beside it: an empty /26 (0.7 KB, its
// historical figure, smaller than any block in use) and a full /26 (17 KB).
//
// The CEILING line divides the allocation's own writes by the same-block CAS, per round, by wall
// time and by CPU time: the ratio an AutoAssign with no reads and no logic would reach, which bounds
// what the goal can be measured at on this machine.
//
// etcd round trips are counted twice: waves of Datastore calls (the countingDatastore wrapper, which
// cannot see the backend's transaction read cache) and requests actually sent (the backend's
// onRequest hook); both must meet the target.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createSqliteDatastore } from '@ipamkit/ipam-datastore/sqlite';
import { casLoop, emptyBlock, fullBlock } from '../../ipam-datastore/bench/bench-blocks.mjs';
import { benchDir } from '../../ipam-datastore/bench/sqlite-cas-bench.mjs';
import { countingDatastore } from '../dist/counting-datastore.js';
import { createIpamClient } from '../dist/index.js';
import { stringifyWireJson } from '@ipamkit/models';

const ALLOCATIONS = Number(process.env.IPAM_BENCH_ALLOCATIONS ?? 1000);
const CAS_WRITES = Number(process.env.IPAM_BENCH_CAS_WRITES ?? 1000);
const ROUNDS = Number(process.env.IPAM_BENCH_ROUNDS ?? 5);
const PARALLEL = Number(process.env.IPAM_BENCH_PARALLEL ?? 8);
const SYNCHRONOUS = 'NORMAL';
const TARGETS = { sqlite: 1, etcd: 2, kubernetes: 4 };
const RATIO_GOAL = 0.8;
const STEADY_LIVE_PODS = 120;
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMicros = (c) => c.user + c.system;

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
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'warm-2', intendedUse: 'Workload' });
  counting.reset();
  const before = etcdRequests;
  await ipam.autoAssign({ num4: 1, hostname: 'bench-node', handleId: 'measured', intendedUse: 'Workload' });
  return { ...counting.counts(), ...(ds.kind === 'etcd' ? { etcdRequests: etcdRequests - before } : {}) };
}

/**
 * Pod churn on `hosts` nodes in parallel (one client each, as separate CNI processes would be):
 * AutoAssign one address per pod, and release the oldest pod once a node holds 100. Only the
 * AutoAssign calls are timed (the CAS loop has nothing like the releases).
 */
async function churn(ds, hosts) {
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/16', blockSize: 26 });
  const nodes = Array.from({ length: hosts }, (_, h) => ({ name: `bench-node-${h}`, ipam: createIpamClient({ datastore: ds }), live: [], next: 0 }));
  for (const n of nodes) await ds.nodes.create({ name: n.name });
  const run = async (node, count, stats) => {
    for (let i = 0; i < count; i++) {
      const handleId = `${node.name}-${node.next++}`;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const { ipv4 } = await node.ipam.autoAssign({ num4: 1, hostname: node.name, handleId, intendedUse: 'Workload' });
      stats.ms += performance.now() - t0;
      stats.cpu += cpuMicros(process.cpuUsage(c0));
      if (ipv4?.ips.length !== 1) throw new Error(`allocation ${handleId} came back short: ${JSON.stringify(ipv4)}`);
      node.live.push(handleId);
      if (node.live.length > 100) await node.ipam.releaseByHandle(node.live.shift());
    }
  };
  const batch = async (total) => {
    const per = Math.ceil(total / hosts);
    const stats = { ms: 0, cpu: 0 };
    const t0 = performance.now();
    await Promise.all(nodes.map((n) => run(n, per, stats)));
    const wall = performance.now() - t0;
    // Parallel clients overlap: scale the summed AutoAssign time to its share of the wall time.
    const seconds = Math.min(stats.ms / hosts, wall) / 1000;
    // CPU per allocation only when serial: in parallel the samples include the other clients' work.
    return { perSecond: (per * hosts) / seconds, cpuMicros: hosts === 1 ? stats.cpu / per : undefined };
  };
  // Warm up to the steady state (each node holding 100 pods, the oldest released), so the blocks
  // the measured allocations write are as full as they will stay.
  await batch(STEADY_LIVE_PODS * hosts);
  return batch;
}

/** The blocks an allocation run left behind: the values its CAS writes were made of. */
async function writtenBlocks(ds) {
  const blocks = await ds.blocks.list();
  if (blocks.length === 0) throw new Error('the allocation run left no block to compare its writes with');
  return blocks.map((stored) => {
    const block = { ...stored };
    delete block.revision;
    delete block.uid;
    return block;
  });
}

/**
 * `writers` CAS loops in parallel, each on its own block (the datastore bench's method). Writer i
 * writes the i-th of `templates` (cycling), re-homed at its own CIDR.
 */
async function casWriters(ds, writers, templates, base) {
  const current = [];
  for (let i = 0; i < writers; i++) {
    const cidr = `10.${base}.${i}.0/26`;
    const template = templates[i % templates.length];
    current.push(await casLoop(ds, await ds.blocks.create({ ...template, cidr }), 20));
  }
  return async (total) => {
    const per = Math.ceil(total / writers);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(current.map(async (start, i) => (current[i] = await casLoop(ds, start, per))));
    const seconds = (performance.now() - t0) / 1000;
    return { perSecond: (per * writers) / seconds, cpuMicros: writers === 1 ? cpuMicros(process.cpuUsage(c0)) / per : undefined };
  };
}

/**
 * One serial CAS writer over copies of all `templates`, each write going to the next block in
 * turn: the serial write stream an allocation run makes, minus the allocation work.
 */
async function casRoundRobin(ds, templates, base) {
  const current = [];
  for (const [i, template] of templates.entries()) current.push(await ds.blocks.create({ ...template, cidr: `10.${base}.${i}.0/26` }));
  let next = 0;
  return async (total) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let k = 0; k < total; k++) {
      const i = next++ % current.length;
      const block = current[i];
      current[i] = await ds.blocks.update({ ...block, sequenceNumber: block.sequenceNumber + 1n });
    }
    const seconds = (performance.now() - t0) / 1000;
    return { perSecond: total / seconds, cpuMicros: cpuMicros(process.cpuUsage(c0)) / total };
  };
}

/**
 * The writes an allocation cannot avoid, and nothing else: one transaction that reads a block,
 * writes it back (one more sequence number) and creates a handle for it, round-robin over copies
 * of `templates`. No pools, config, node or affinity reads and no block logic: the floor under
 * AutoAssign on a backend with transact.
 */
async function allocationWritesRoundRobin(ds, templates, base) {
  const cidrs = [];
  for (const [i, template] of templates.entries()) cidrs.push((await ds.blocks.create({ ...template, cidr: `10.${base}.${i}.0/26` })).cidr);
  let next = 0;
  let handles = 0;
  return async (total) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let k = 0; k < total; k++) {
      const cidr = cidrs[next++ % cidrs.length];
      const handleId = `floor-${base}-${handles++}`;
      await ds.transact(async (tx) => {
        const block = await tx.blocks.get(cidr);
        tx.write({ op: 'update', kind: 'block', value: { ...block, sequenceNumber: block.sequenceNumber + 1n } });
        tx.write({ op: 'create', kind: 'handle', value: { handleId, block: { [cidr]: 1 }, deleted: false } });
      });
    }
    const seconds = (performance.now() - t0) / 1000;
    return { perSecond: total / seconds, cpuMicros: cpuMicros(process.cpuUsage(c0)) / total };
  };
}

/** Interleaved rounds of allocation and CAS batches; medians, and the median of per-round ratios. */
async function compare(open, parallel) {
  const dsAlloc = await open();
  const dsCas = await open();
  try {
    const alloc = await churn(dsAlloc, parallel);
    // Like with like: CAS of the very block values the allocations write (after the warm-up), one
    // writer per block the run holds, so sizes average as the allocations' writes do.
    const written = await writtenBlocks(dsAlloc);
    const sides = {
      alloc,
      casSame: parallel === 1 ? await casRoundRobin(dsCas, written, 253) : await casWriters(dsCas, parallel, written, 253),
      ...(parallel === 1 ? { floor: await allocationWritesRoundRobin(dsCas, written, 252) } : {}),
      cas: await casWriters(dsCas, parallel, [emptyBlock('')], 255),
      ...(parallel === 1 ? { casFull: await casWriters(dsCas, 1, [fullBlock('')], 254) } : {}),
    };
    const counts = {
      alloc: Math.ceil(ALLOCATIONS / ROUNDS),
      casSame: Math.ceil(CAS_WRITES / ROUNDS),
      floor: Math.ceil(CAS_WRITES / ROUNDS),
      cas: Math.ceil(CAS_WRITES / ROUNDS),
      casFull: Math.ceil(CAS_WRITES / ROUNDS / 2),
    };
    const runs = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
      for (const k of order) runs[k].push(await sides[k](counts[k]));
    }
    const rate = (k) => median(runs[k].map((x) => x.perSecond));
    const cpu = (k) => (runs[k][0]?.cpuMicros === undefined ? undefined : median(runs[k].map((x) => x.cpuMicros)));
    const ratio = (k) => median(runs.alloc.map((a, i) => a.perSecond / runs[k][i].perSecond));
    return {
      allocPerSec: rate('alloc'),
      allocCpuMicros: cpu('alloc'),
      writtenBlocks: written.length,
      writtenBlockBytes: Math.round(written.reduce((n, b) => n + stringifyWireJson(b).length, 0) / written.length),
      casSamePerSec: rate('casSame'),
      casSameCpuMicros: cpu('casSame'),
      ratioSame: ratio('casSame'),
      ...(runs.floor === undefined
        ? {}
        : {
            floorPerSec: rate('floor'),
            floorCpuMicros: cpu('floor'),
            ratioFloor: ratio('floor'),
            // The ceiling of the goal's ratio: what an AutoAssign with no reads and no logic would score.
            ceiling: median(runs.floor.map((f, i) => f.perSecond / runs.casSame[i].perSecond)),
            ceilingCpu: median(runs.floor.map((f, i) => runs.casSame[i].cpuMicros / f.cpuMicros)),
          }),
      casPerSec: rate('cas'),
      casCpuMicros: cpu('cas'),
      ratio: ratio('cas'),
      ...(runs.casFull === undefined ? {} : { casFullPerSec: rate('casFull'), casFullCpuMicros: cpu('casFull'), ratioFull: ratio('casFull') }),
      rounds: ROUNDS,
    };
  } finally {
    await Promise.all([dsAlloc, dsCas].map((ds) => ds.close()));
  }
}

const tmp = benchDir('ipam-core-bench-');
let n = 0;
const sqlite = () => createSqliteDatastore({ path: join(tmp, `bench-${n++}.db`), synchronous: SYNCHRONOUS });
let etcd;
/** Requests sent to etcd by every bench datastore (counted at the wire by the backend's hook). */
let etcdRequests = 0;
async function etcdDatastore() {
  if (etcd === undefined) {
    const fromEnv = (process.env.ETCD_ENDPOINTS ?? '').split(',').map((e) => e.trim()).find((e) => e !== '');
    if (fromEnv !== undefined) etcd = { endpoint: fromEnv, stop: async () => {} };
    else {
      const { startEtcd } = await import('@ipamkit/test-utils');
      etcd = await startEtcd();
    }
  }
  const { createEtcdDatastore } = await import('@ipamkit/ipam-datastore/etcd');
  return createEtcdDatastore({ endpoints: [etcd.endpoint], prefix: `/bench-${process.pid}-${n++}`, onRequest: () => (etcdRequests += 1) });
}

async function measure(open, options) {
  const dsWaves = await open();
  let counts;
  try {
    counts = await steadyStateWaves(dsWaves, options);
  } finally {
    await dsWaves.close();
  }
  const rates = {};
  for (const parallel of [1, PARALLEL]) rates[parallel === 1 ? 'serial' : `parallel${parallel}`] = await compare(open, parallel);
  return { ...counts, ...rates };
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

const us = (v) => (v === undefined ? '-' : `${fmt(v)} µs`);
console.log(
  `conditions: 1 process; 1 connection per datastore; SQLite synchronous=${SYNCHRONOUS}, files under os.tmpdir(); ` +
    `medians of ${ROUNDS} interleaved rounds (${ALLOCATIONS} allocations, ${CAS_WRITES} CAS writes per mode); CPU = process.cpuUsage() per operation, serial only`,
);
console.log(
  'backend     round trips (target)  etcd requests  mode        allocations/s  CPU/alloc   CAS/s same blocks (avg size)  ratio   ' +
    'CAS/s empty /26  CPU/CAS    ratio   CAS/s full /26  ratio',
);
for (const [name, r] of Object.entries(results)) {
  if (r.skipped !== undefined) {
    console.log(`${name.padEnd(11)} skipped: ${r.skipped}`);
    continue;
  }
  const ok = r.waves <= TARGETS[name] && (r.etcdRequests === undefined || r.etcdRequests <= TARGETS[name]);
  failed ||= !ok;
  const trips = `${r.waves} (≤ ${TARGETS[name]})${ok ? '' : ' MISSED'}`;
  const requests = String(r.etcdRequests ?? '-');
  const modes = Object.entries(r).filter(([, v]) => typeof v === 'object' && v !== null && 'allocPerSec' in v);
  if (modes.length === 0) console.log(`${name.padEnd(11)} ${trips.padEnd(21)} ${requests.padEnd(14)} -`);
  for (const [mode, m] of modes) {
    const same = `${fmt(m.casSamePerSec)} (${m.writtenBlocks} × ${(m.writtenBlockBytes / 1024).toFixed(1)} KB)`;
    const full = m.casFullPerSec === undefined ? '-'.padEnd(15) + ' -' : `${fmt(m.casFullPerSec).padEnd(15)} ${m.ratioFull.toFixed(2)}`;
    console.log(
      `${name.padEnd(11)} ${trips.padEnd(21)} ${requests.padEnd(14)} ${mode.padEnd(11)} ${fmt(m.allocPerSec).padEnd(14)} ${us(m.allocCpuMicros).padEnd(11)} ` +
        `${same.padEnd(29)} ${m.ratioSame.toFixed(2).padEnd(7)} ${fmt(m.casPerSec).padEnd(16)} ${us(m.casCpuMicros).padEnd(10)} ${m.ratio.toFixed(2).padEnd(7)} ${full}`,
    );
  }
}
for (const [name, r] of Object.entries(results)) {
  if (r.serial === undefined) continue;
  const s = r.serial;
  console.log(
    `RATIO ${name}: serial allocations/s ÷ serial single-object CAS/s of the same block values = ${s.ratioSame.toFixed(2)} ` +
      `(goal ≥ ${RATIO_GOAL}: ${s.ratioSame >= RATIO_GOAL ? 'met' : 'below'}); ÷ CAS of an empty /26 = ${s.ratio.toFixed(2)}; ÷ CAS of a full /26 = ${s.ratioFull.toFixed(2)}; ` +
      `÷ the allocation's own writes (block read-modify-write + handle create, one transaction: ${fmt(s.floorPerSec)}/s) = ${s.ratioFloor.toFixed(2)}`,
  );
  console.log(
    `CEILING ${name}: the allocation's own writes alone (read the block, write it back, create the handle: one transaction; no other read, no logic) ` +
      `run at ${s.ceiling.toFixed(2)} of the same-block CAS rate ` +
      `(CPU: ${fmt(s.casSameCpuMicros)} µs per CAS ÷ ${fmt(s.floorCpuMicros)} µs per write pair = ${s.ceilingCpu.toFixed(2)}); ` +
      `an AutoAssign, which must also choose the block and the address, scores below this`,
  );
}
console.log(JSON.stringify({ bench: '@ipamkit/ipam-core', targets: TARGETS, ratioGoal: RATIO_GOAL, results }));
if (failed) process.exitCode = 1;
