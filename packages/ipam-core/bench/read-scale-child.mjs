// One measurement of the read-scale bench, in a process of its own so that its peak RSS is its own
// (design/ipam-core.md, "Utilization at scale"). argv[2] is a JSON job:
//   { backend: 'memory' | 'sqlite' | 'etcd', blocks, reservations, impl: 'after' | 'before' | 'page',
//     sqlitePath?, endpoint?, prefix?, before? }
// `after` is GetUtilization of this build; `before` the same call of another build's dist/index.js
// (job.before); `page` (etcd) pages the raw block keys through etcd's JSON gateway in pages of 500
// at one revision and decodes nothing but the base64: the floor any reader of every block pays.
// Memory is seeded here (a memory store lives in its process): its RSS before the call is reported.
// Prints one JSON line.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { seedReadScale } from './read-scale-seed.mjs';

const job = JSON.parse(process.argv[2]);
const mb = (bytes) => Math.round(bytes / 1e5) / 10;

async function openDatastore() {
  if (job.backend === 'memory') {
    const ds = await createDatastore({ type: 'memory' });
    await seedReadScale(ds, job);
    return ds;
  }
  if (job.backend === 'sqlite') return await createDatastore({ type: 'sqlite', path: job.sqlitePath, readonly: true });
  return await createDatastore({ type: 'etcd', endpoints: [job.endpoint], prefix: job.prefix });
}

function post(path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, job.endpoint);
    const req = http.request(url, { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
const keepAlive = new http.Agent({ keepAlive: true });

/** The floor on etcd: every block key's value paged through at one revision, base64-decoded. */
async function pageRawBlocks() {
  const b64 = (s) => Buffer.from(s).toString('base64');
  const start = `${job.prefix}/calico/ipam/v2/assignment/ipv4/block/`;
  const end = `${job.prefix}/calico/ipam/v2/assignment/ipv4/block0`;
  let key = b64(start);
  let revision;
  let count = 0;
  let bytes = 0;
  for (;;) {
    const res = await post('/v3/kv/range', { key, range_end: b64(end), limit: 500, ...(revision === undefined ? {} : { revision }) });
    revision ??= res.header.revision;
    const kvs = res.kvs ?? [];
    for (const kv of kvs) bytes += Buffer.from(kv.value, 'base64').toString('utf8').length;
    count += kvs.length;
    if (res.more !== true || kvs.length === 0) return { count, bytes };
    key = b64(`${Buffer.from(kvs.at(-1).key, 'base64').toString('utf8')}\u0000`);
  }
}

const ds = job.impl === 'page' ? undefined : await openDatastore();
const core = job.impl === 'before' ? await import(job.before) : await import('../dist/index.js');
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const peakBefore = process.resourceUsage().maxRSS * 1024;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let summary;
if (job.impl === 'page') {
  summary = await pageRawBlocks();
} else {
  const pools = await core.createIpamClient({ datastore: ds }).getUtilization();
  summary = pools.map((p) => ({ name: p.name, blocks: p.blocks.length, inUse: String(p.inUse), reserved: String(p.reserved), available: String(p.available) }));
}
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const peak = process.resourceUsage().maxRSS * 1024;
await ds?.close();
keepAlive.destroy();
console.log(JSON.stringify({
  wallMs: Math.round(wallMs),
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  peakRssMB: mb(peak),
  rssBeforeMB: mb(rssBefore),
  peakBeforeMB: mb(peakBefore),
  summary,
}));
