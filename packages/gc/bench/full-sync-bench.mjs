// Full-sync benchmark (design/gc.md "Scale"): 5,000 nodes, 10,000 blocks and 150,000 allocations
// in the memory datastore and the in-memory cluster view; reports the time from start (list and
// ingest) through one full pass, and the process's peak RSS. Run: npm run bench -w @ipamkit/gc
import { performance } from 'node:perf_hooks';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { GcController, MemoryClusterView } from '../dist/index.js';

const NODES = 5000;
const BLOCKS_PER_NODE = 2;
const ALLOCATIONS_PER_BLOCK = 15;
const BLOCK_SIZE = 64; // /26
const TIME_GOAL_MS = 2000;
const RSS_GOAL_MB = 300;

function ipAt(index) {
  // 10.0.0.0/12 laid out block after block.
  return `10.${(index >>> 16) & 0xff}.${(index >>> 8) & 0xff}.${index & 0xff}`;
}

async function main() {
  const ds = await createDatastore({ type: 'memory' });
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/12', blockSize: 26 });
  const view = new MemoryClusterView();
  let block = 0;
  for (let n = 0; n < NODES; n++) {
    const node = `node-${n}`;
    view.upsertNode(node);
    for (let b = 0; b < BLOCKS_PER_NODE; b++, block++) {
      const base = block * BLOCK_SIZE;
      const allocations = new Array(BLOCK_SIZE).fill(null);
      const attributes = [];
      const sequenceNumberForAllocation = {};
      for (let o = 0; o < ALLOCATIONS_PER_BLOCK; o++) {
        const pod = `pod-${block}-${o}`;
        allocations[o] = attributes.length;
        attributes.push({ handleId: `k8s-pod-network.${block}-${o}`, activeOwnerAttrs: { node, namespace: 'default', pod } });
        sequenceNumberForAllocation[String(o)] = BigInt(o);
        view.upsertPod({ name: pod, namespace: 'default', nodeName: node, ips: [ipAt(base + o)] });
      }
      await ds.blocks.create({
        cidr: `${ipAt(base)}/26`,
        affinity: { type: 'host', host: node },
        allocations,
        unallocated: allocations.flatMap((x, i) => (x === null ? [i] : [])),
        attributes,
        sequenceNumber: 1n,
        sequenceNumberForAllocation,
        deleted: false,
      });
    }
  }
  // The datastore's own share of the ingest: one listing, timed apart from the collector.
  const listStart = performance.now();
  await ds.blocks.listWithRevision();
  const datastoreListMs = performance.now() - listStart;
  globalThis.gc?.();
  const heapBeforeMb = process.memoryUsage().heapUsed / 2 ** 20;
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;

  const gc = new GcController({ datastore: ds, view, leakGracePeriodMs: 15 * 60_000, background: false });
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await gc.start();
  const ingested = performance.now();
  const result = await gc.syncNow({ full: true });
  const synced = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  globalThis.gc?.();
  const heapAfterMb = process.memoryUsage().heapUsed / 2 ** 20;
  await gc.assertConsistentState();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;

  const fullSyncMs = synced - start;
  const report = {
    nodes: NODES,
    blocks: gc.state.allBlocks.size,
    allocations: [...gc.state.allocationsByBlock.values()].reduce((n, m) => n + m.size, 0),
    ingestMs: Math.round(ingested - start),
    passMs: Math.round(synced - ingested),
    fullSyncMs: Math.round(fullSyncMs),
    // CPU time of the same span: on a loaded, shared machine wall time overstates the work.
    fullSyncCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    released: result.released,
    datastoreListMs: Math.round(datastoreListMs),
    collectorHeapMb: Math.round(heapAfterMb - heapBeforeMb),
    rssBeforeGcMb: Math.round(rssBeforeMb),
    peakRssMb: Math.round(peakRssMb),
    goals: { fullSyncMs: TIME_GOAL_MS, peakRssMb: RSS_GOAL_MB },
    met: { fullSync: fullSyncMs <= TIME_GOAL_MS, peakRss: peakRssMb <= RSS_GOAL_MB },
  };
  console.log(JSON.stringify(report, null, 2));
  await gc.stop();
  await ds.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
