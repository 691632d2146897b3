// Pool metrics refresh at scale (design/gc.md, "Pool metrics at 100,000 blocks"): what the
// refresh of the gauges (`GcMetrics.update`, run after every pass) adds to the controller, at
// 100,000 /26 blocks of one /8 pool with 1,000 IPReservations (the read-scale shape of
// design/ipam-core.md, "Utilization at scale"), each block affine to one of the nodes and holding a
// few pods' addresses. Target: ≤ 300 MB added to the controller.
//
// Run (after the build): node --expose-gc bench/pool-metrics-bench.mjs. Every run is a fresh child
// process; runs alternate between two modes:
//   with     the controller as shipped: start() and one full pass, each followed by the refresh;
//   without  the same, with `metrics.update` replaced by a no-op before start().
// Reported per mode (medians; peak the highest): process peak RSS, RSS and heap after a forced gc.
// "with" also runs one more refresh alone (`updateMetrics()`), after a forced gc: its CPU time, the
// heap it allocated (heap right after it, before any forced gc, minus the heap before) and what it
// retained (after a forced gc). The refresh's cost in memory is the larger of "with − without" on
// the process peak and on the retained RSS, and the lone refresh's allocation.
//
// Environment: GC_METRICS_BLOCKS (100000), GC_METRICS_RESERVATIONS (1000), GC_METRICS_NODES
// (1000), GC_METRICS_ALLOCATIONS_PER_BLOCK (1), GC_METRICS_RUNS (3 per mode).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GcController, MemoryClusterView } from '../dist/index.js';
import { createFixtureDatastore } from './fixture-datastore.mjs';
import { flat, podBlock } from './pod-block.mjs';

const BLOCKS = Number(process.env.GC_METRICS_BLOCKS ?? 100_000);
const RESERVATIONS = Number(process.env.GC_METRICS_RESERVATIONS ?? 1_000);
const NODES = Number(process.env.GC_METRICS_NODES ?? 1_000);
const PER_BLOCK = Number(process.env.GC_METRICS_ALLOCATIONS_PER_BLOCK ?? 1);
const RUNS = Number(process.env.GC_METRICS_RUNS ?? 3);
const GOAL_MB = 300;
const MB = 2 ** 20;
const BASE = 10 * 2 ** 24;

// Flat strings, as decoded JSON gives (see full-sync-bench.mjs).
const dotted = (n) => flat(Math.floor(n / 2 ** 24) % 256, '.', Math.floor(n / 2 ** 16) % 256, '.', Math.floor(n / 2 ** 8) % 256, '.', n % 256);
const nodeOf = (block) => flat('node-', block % NODES);

function generateBlocks() {
  const blocks = [];
  for (let b = 0; b < BLOCKS; b++) blocks.push(podBlock(b, flat(dotted(BASE + b * 64), '/26'), nodeOf(b), PER_BLOCK));
  return blocks;
}

/** As ipam-core's read-scale seed: nine in ten a /29 inside one block, one in ten a /25 over two. */
function reservations() {
  return Array.from({ length: RESERVATIONS }, (_, r) => {
    const b = Math.floor((r * BLOCKS) / RESERVATIONS);
    const spanning = r % 10 === 9;
    return { name: flat('read-scale-', r), reservedCIDRs: [flat(dotted(BASE + b * 64 + (spanning ? 0 : 8)), spanning ? '/25' : '/29')], revision: '1' };
  });
}

function buildView() {
  const view = new MemoryClusterView();
  for (let n = 0; n < NODES; n++) view.upsertNode(flat('node-', n));
  for (let b = 0; b < BLOCKS; b++) {
    for (let o = 0; o < PER_BLOCK; o++) view.upsertPod({ name: flat('pod-', b, '-', o), namespace: 'default', nodeName: nodeOf(b), ips: [dotted(BASE + b * 64 + o)] });
  }
  return view;
}

function memory() {
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapMb: heapUsed / MB, rssMb: rss / MB };
}

async function runOnce(mode) {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const view = buildView();
  const ds = createFixtureDatastore({ pools: [{ name: 'read-scale', cidr: '10.0.0.0/8', blockSize: 26, revision: '1' }], generateBlocks, reservations: reservations() });
  ds.prepareBlockListing();
  const gc = new GcController({ datastore: ds, view, leakGracePeriodMs: 15 * 60_000, background: false });
  if (mode === 'without') gc.metrics.update = () => undefined;
  await gc.start();
  const result = await gc.syncNow({ full: true });
  if (!result.ran || gc.state.allBlocks.size !== BLOCKS) throw new Error(`the collector did not ingest the fixture: ${gc.state.allBlocks.size} blocks`);
  const synced = memory();
  const out = { mode, syncedRssMb: synced.rssMb, syncedHeapMb: synced.heapMb };
  if (mode === 'with') {
    const before = memory();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await gc.updateMetrics();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const heapRightAfterMb = process.memoryUsage().heapUsed / MB;
    const after = memory();
    const series = (await gc.metrics.registry.getMetricsAsJSON()).reduce((n, m) => n + m.values.length, 0);
    Object.assign(out, {
      refreshWallMs: wallMs,
      refreshCpuMs: (cpu.user + cpu.system) / 1000,
      refreshAllocatedHeapMb: heapRightAfterMb - before.heapMb,
      refreshRetainedHeapMb: after.heapMb - before.heapMb,
      refreshRetainedRssMb: after.rssMb - before.rssMb,
      series,
    });
  }
  out.peakRssMb = process.resourceUsage().maxRSS / 1024;
  await gc.stop();
  await ds.close();
  console.log(JSON.stringify(out));
}

function child(mode) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS; // ~40 ms per node start (design/toolchain.md)
    const proc = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let text = '';
    proc.stdout.on('data', (d) => (text += d));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(text.trim().split('\n').pop())) : reject(new Error(`bench run exited with ${code}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (x) => Math.round(x * 10) / 10;

async function main() {
  console.log(`# ${BLOCKS} blocks, ${RESERVATIONS} reservations, ${NODES} nodes, ${PER_BLOCK} allocation(s) per block; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const results = { with: [], without: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of i % 2 === 0 ? ['with', 'without'] : ['without', 'with']) {
      const r = await child(mode);
      results[mode].push(r);
      console.log(`run ${i + 1} ${mode}: ${JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? r1(v) : v])))}`);
    }
  }
  const m = (mode, k) => median(results[mode].map((r) => r[k]));
  const peak = (mode) => Math.max(...results[mode].map((r) => r.peakRssMb));
  const peakAdded = peak('with') - peak('without');
  const retainedAdded = m('with', 'syncedRssMb') - m('without', 'syncedRssMb');
  const allocated = m('with', 'refreshAllocatedHeapMb');
  const added = Math.max(peakAdded, retainedAdded, allocated);
  console.log('| mode | process peak RSS MB (max) | RSS after sync MB | heap after sync MB |');
  console.log('|---|---|---|---|');
  for (const mode of ['without', 'with']) console.log(`| ${mode} refresh | ${r1(peak(mode))} | ${r1(m(mode, 'syncedRssMb'))} | ${r1(m(mode, 'syncedHeapMb'))} |`);
  console.log(`lone refresh: ${r1(m('with', 'refreshCpuMs'))} ms CPU, ${r1(m('with', 'refreshWallMs'))} ms wall, ${r1(allocated)} MB heap allocated, ${r1(m('with', 'refreshRetainedHeapMb'))} MB heap retained, ${results.with[0].series} series`);
  console.log(`TARGET pool metrics refresh adds ${r1(added)} MB (peak ${r1(peakAdded)}, retained ${r1(retainedAdded)}, allocated ${r1(allocated)}) (≤ ${GOAL_MB}): ${added <= GOAL_MB ? 'met' : 'NOT met'}`);
  console.log(`# load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

(process.argv.includes('--child') ? runOnce(process.argv[process.argv.indexOf('--child') + 1]) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
