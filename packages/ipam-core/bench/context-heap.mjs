// `node --expose-gc bench/context-heap.mjs` (on the built packages): the heap a caching client holds
// for its assignment context (design/ipam-core.md, "The cached assignment context"), per 10,000
// blocks. A memory datastore holds 10,000 host-affine /26 blocks, spread as HOSTS hosts × BLOCKS_PER_HOST
// blocks (the cache keeps at most 256 owners), or all affine to one owner; a client allocates one
// address for every host, and the heap is measured after a full GC with the client alive and again
// after it is dropped. The same with the cache off is the baseline: the difference is the cache.
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const gc = globalThis.gc;
const BLOCKS = 10_000;

function emptyBlock(cidr, host) {
  return {
    cidr,
    affinity: { type: 'host', host },
    affinityClaimTime: '2026-12-01T18:00:00Z',
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 64 }, (_, i) => i),
    attributes: [],
    sequenceNumber: 0n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/** The i-th /26 of 10.0.0.0/8. */
function blockCidr(i) {
  const base = i * 64;
  return `10.${(base >> 16) & 255}.${(base >> 8) & 255}.${base & 255}/26`;
}

async function seeded(hosts) {
  const ds = await createDatastore({ type: 'memory' });
  await ds.ipPools.create({ name: 'big', cidr: '10.0.0.0/8', blockSize: 26 });
  await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
  const perHost = BLOCKS / hosts;
  for (let h = 0; h < hosts; h++) await ds.nodes.create({ name: `host-${h}` });
  for (let i = 0; i < BLOCKS; i++) {
    const host = `host-${Math.floor(i / perHost)}`;
    const cidr = blockCidr(i);
    await ds.blocks.create(emptyBlock(cidr, host));
    await ds.affinities.create({ host, type: 'host', cidr, state: 'confirmed', deleted: false });
  }
  return ds;
}

function heapMiB() {
  gc();
  gc();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

async function held(hosts, cache) {
  const ds = await seeded(hosts);
  let ipam = createIpamClient({ datastore: ds, cacheAssignContext: cache });
  let peak = 0;
  for (let h = 0; h < hosts; h++) {
    await ipam.autoAssign({ num4: 1, hostname: `host-${h}`, handleId: `h-${h}`, intendedUse: 'Workload' });
    if (h % 16 === 15 || h === hosts - 1) peak = Math.max(peak, process.memoryUsage().heapUsed / (1024 * 1024));
  }
  const alive = heapMiB();
  ipam = undefined;
  const dropped = heapMiB();
  await ds.close();
  return { alive, dropped, client: alive - dropped, peak };
}

// Each measurement in a process of its own (IPAM_HEAP_CASE=<hosts>:<on|off>), so that one case's
// garbage cannot land in another's figure.
const only = process.env.IPAM_HEAP_CASE;
if (only !== undefined) {
  const [hosts, cache] = only.split(':');
  process.stdout.write(`${JSON.stringify(await held(Number(hosts), cache === 'on'))}\n`);
} else {
  const { execFileSync } = await import('node:child_process');
  const run = (hosts, cache) =>
    JSON.parse(execFileSync(process.execPath, ['--expose-gc', new URL(import.meta.url).pathname], { env: { ...process.env, IPAM_HEAP_CASE: `${hosts}:${cache}` } }).toString());
  for (const hosts of [250, 1]) {
    const off = run(hosts, 'off');
    const on = run(hosts, 'on');
    console.log(
      `${BLOCKS} blocks over ${hosts} host(s): the client holds ${on.client.toFixed(2)} MiB with the cache, ${off.client.toFixed(2)} MiB without ` +
        `(the cache: ${(on.client - off.client).toFixed(2)} MiB per 10,000 blocks); peak heapUsed of the run ${on.peak.toFixed(1)} MiB (cache off ${off.peak.toFixed(1)} MiB)`,
    );
  }
}
