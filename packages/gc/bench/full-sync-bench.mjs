// Full-sync benchmark (design/gc.md "Performance"): 5,000 nodes, 10,000 blocks and 150,000
// allocations, pods in the in-memory cluster view, blocks served by a lean fixture datastore
// (bench/fixture-datastore.mjs). Times `start()` (list and ingest) plus one full pass.
//
// Run: npm run bench -w @ipamkit/gc [-- --runs N]. Each run is a fresh child process (peak RSS is
// per process); the parent prints every run and the medians. The goals (≤ 2 s, ≤ 300 MB) are
// judged on the median full-sync WALL time and the highest PROCESS PEAK RSS of the runs. CPU time
// of the same span is printed too: on a loaded machine wall time overstates the work.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GcController, MemoryClusterView } from '../dist/index.js';
import { createFixtureDatastore } from './fixture-datastore.mjs';
import { flat, podBlock } from './pod-block.mjs';

const NODES = 5000;
const BLOCKS_PER_NODE = 2;
const ALLOCATIONS_PER_BLOCK = 15;
const BLOCK_SIZE = 64; // /26
const TIME_GOAL_MS = 2000;
const RSS_GOAL_MB = 300;
const MB = 2 ** 20;

function ipAt(index) {
  // 10.0.0.0/12 laid out block after block.
  return flat('10.', (index >>> 16) & 0xff, '.', (index >>> 8) & 0xff, '.', index & 0xff);
}

/** The 10,000 blocks, fresh objects on every call (what a datastore listing decodes to). */
function generateBlocks() {
  const blocks = [];
  for (let block = 0; block < NODES * BLOCKS_PER_NODE; block++) {
    blocks.push(podBlock(block, flat(ipAt(block * BLOCK_SIZE), '/26'), flat('node-', Math.floor(block / BLOCKS_PER_NODE)), ALLOCATIONS_PER_BLOCK));
  }
  return blocks;
}

/** The cluster view and how many pods it holds. */
function buildView() {
  const view = new MemoryClusterView();
  let pods = 0;
  let block = 0;
  for (let n = 0; n < NODES; n++) {
    const node = flat('node-', n);
    view.upsertNode(node);
    for (let b = 0; b < BLOCKS_PER_NODE; b++, block++) {
      for (let o = 0; o < ALLOCATIONS_PER_BLOCK; o++) {
        view.upsertPod({ name: flat('pod-', block, '-', o), namespace: 'default', nodeName: node, ips: [ipAt(block * BLOCK_SIZE + o)] });
        pods++;
      }
    }
  }
  return { view, pods };
}

function memory() {
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapMb: heapUsed / MB, rssMb: rss / MB };
}

/** One measured run, in this process; prints one JSON line. */
async function runOnce() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const base = memory();
  const { view, pods } = buildView();
  const ds = createFixtureDatastore({ pools: [{ name: 'bench', cidr: '10.0.0.0/12', blockSize: 26, revision: '1' }], generateBlocks });
  const fixture = memory();
  // Built before the clock starts; from here on only the collector holds what it keeps of it.
  const listingBuildMs = ds.prepareBlockListing();

  const gc = new GcController({ datastore: ds, view, leakGracePeriodMs: 15 * 60_000, background: false });
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await gc.start();
  const ingested = performance.now();
  const ingestCpu = process.cpuUsage(cpuStart);
  const result = await gc.syncNow({ full: true });
  const synced = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  const after = memory();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;

  await gc.assertConsistentState({ fixtureInvariants: true });
  const allocations = [...gc.state.allocationsByBlock.values()].reduce((n, m) => n + m.size, 0);
  if (gc.state.allBlocks.size !== NODES * BLOCKS_PER_NODE || allocations !== NODES * BLOCKS_PER_NODE * ALLOCATIONS_PER_BLOCK || !result.ran || !result.full) {
    throw new Error(`the collector did not ingest the fixture: ${gc.state.allBlocks.size} blocks, ${allocations} allocations`);
  }
  const ms = (us) => (us.user + us.system) / 1000;
  console.log(
    JSON.stringify({
      fullSyncMs: synced - start,
      fullSyncCpuMs: ms(cpu),
      ingestMs: ingested - start,
      ingestCpuMs: ms(ingestCpu),
      passMs: synced - ingested,
      passCpuMs: ms(cpu) - ms(ingestCpu),
      released: result.released,
      listingBuildMs,
      peakRssMb,
      baseRssMb: base.rssMb,
      fixtureRssMb: fixture.rssMb - base.rssMb,
      fixtureHeapMb: fixture.heapMb - base.heapMb,
      collectorHeapMb: after.heapMb - fixture.heapMb,
      collectorRssMb: after.rssMb - fixture.rssMb,
      view: pods,
    }),
  );
  await gc.stop();
  await ds.close();
}

function child() {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`bench run exited with ${code}`))));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const round = (x) => Math.round(x);

async function main() {
  const at = process.argv.indexOf('--runs');
  const runs = at === -1 ? 3 : Number(process.argv[at + 1]);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await child();
    results.push(r);
    console.log(`run ${i + 1}/${runs}: full sync ${round(r.fullSyncMs)} ms wall / ${round(r.fullSyncCpuMs)} ms CPU (ingest ${round(r.ingestMs)}/${round(r.ingestCpuMs)}, pass ${round(r.passMs)}/${round(r.passCpuMs)}), peak RSS ${round(r.peakRssMb)} MB, collector heap +${round(r.collectorHeapMb)} MB, load ${loadavg()[0].toFixed(1)}`);
  }
  const m = (k) => median(results.map((r) => r[k]));
  const wall = m('fullSyncMs');
  const cpu = m('fullSyncCpuMs');
  const peak = Math.max(...results.map((r) => r.peakRssMb));
  const report = {
    shape: { nodes: NODES, blocks: NODES * BLOCKS_PER_NODE, allocations: NODES * BLOCKS_PER_NODE * ALLOCATIONS_PER_BLOCK, pods: results[0].view },
    runs,
    // The two numbers compared with the goals.
    judged: {
      fullSyncWallMs: round(wall),
      processPeakRssMb: round(peak),
      goals: { fullSyncWallMs: TIME_GOAL_MS, processPeakRssMb: RSS_GOAL_MB },
      met: { fullSync: wall <= TIME_GOAL_MS, peakRss: peak <= RSS_GOAL_MB },
    },
    // Medians. CPU time is the same span's user+system time: when the machine is loaded
    // (wall much above CPU), it is the better measure of the collector's work.
    medians: {
      fullSyncCpuMs: round(cpu),
      ingestMs: round(m('ingestMs')),
      ingestCpuMs: round(m('ingestCpuMs')),
      passMs: round(m('passMs')),
      passCpuMs: round(m('passCpuMs')),
      fullSyncWithinGoalOnCpu: cpu <= TIME_GOAL_MS,
    },
    // Where the memory goes (heap/RSS after a forced gc): the collector's share is the growth from
    // the built fixture to the end of the sync, the listing it was handed already dropped.
    memoryMedians: {
      nodeBaselineRssMb: round(m('baseRssMb')),
      fixtureViewHeapMb: round(m('fixtureHeapMb')),
      fixtureViewRssMb: round(m('fixtureRssMb')),
      collectorHeapMb: round(m('collectorHeapMb')),
      collectorRssMb: round(m('collectorRssMb')),
      listingBuildMsOutsideTimedSpan: round(m('listingBuildMs')),
    },
    loaded: wall > 1.5 * cpu ? 'yes: wall time is dominated by waiting for a CPU; compare the CPU time' : 'no',
  };
  console.log(JSON.stringify(report, null, 2));
}

(process.argv.includes('--child') ? runOnce() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
