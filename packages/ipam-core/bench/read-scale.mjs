// `npm run bench:read-scale -w @ipamkit/ipam-core` (after the build): GetUtilization over one pool
// of /26 blocks with IPReservations (read-scale-seed.mjs) on memory, SQLite and a real etcd, each
// measurement in a fresh process (read-scale-child.mjs) so wall time, CPU time and peak RSS are
// that run's. Targets (design/ipam-core.md, "Utilization at scale"): 100,000 blocks with 1,000
// reservations in ≤ 1 s wall and ≤ 300 MB peak RSS on memory (the store's own RSS reported beside
// it) and SQLite; on etcd ≤ 1.2 × the time to page the raw blocks through (`page` rows): the
// `RATIO` lines print GetUtilization's wall (and CPU) time over the `page` row's.
//
// Environment:
//   READ_SCALE_BACKENDS   memory,sqlite,etcd (default all three)
//   READ_SCALE_SIZES      blocks×reservations list, default 10000x1000,100000x1000
//   READ_SCALE_GRID=1     10k / 100k / 300k blocks × 100 / 1,000 / 10,000 reservations instead
//   READ_SCALE_RUNS       runs per row (default 3), interleaved across implementations
//   READ_SCALE_BEFORE     path of another build's ipam-core dist/index.js: adds `before` rows
//   ETCD_ENDPOINTS        an etcd to use instead of a throwaway one from @ipamkit/test-utils
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { seedReadScale } from './read-scale-seed.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const backends = (process.env.READ_SCALE_BACKENDS ?? 'memory,sqlite,etcd').split(',');
const runs = Number(process.env.READ_SCALE_RUNS ?? 3);
const grid = [10_000, 100_000, 300_000].flatMap((b) => [100, 1_000, 10_000].map((r) => `${b}x${r}`));
const sizes = (process.env.READ_SCALE_GRID === '1' ? grid : (process.env.READ_SCALE_SIZES ?? '10000x1000,100000x1000').split(','))
  .map((s) => s.split('x').map(Number))
  .map(([blocks, reservations]) => ({ blocks, reservations }));
const before = process.env.READ_SCALE_BEFORE === undefined ? undefined : pathToFileURL(resolve(process.env.READ_SCALE_BEFORE)).href;
const childEnv = { ...process.env };
delete childEnv.NODE_EXTRA_CA_CERTS; // costs ~40 ms per node start (design/toolchain.md, "Node startup")

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** One child run; a failing run (the old build on etcd at 100,000 blocks) is a result too. */
function measure(job) {
  const t0 = Date.now();
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', join(here, 'read-scale-child.mjs'), JSON.stringify(job)], {
      env: childEnv,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out.trim().split('\n').at(-1));
  } catch (err) {
    const line = String(err.stderr ?? err.message).split('\n').find((l) => /Error:/.test(l)) ?? 'failed';
    return { failed: `${line.trim().slice(0, 160)} after ${fmt(Date.now() - t0)} ms` };
  }
}

async function seeded(backend, size, etcd) {
  const t0 = Date.now();
  if (backend === 'memory') return { job: {} };
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(os.tmpdir(), 'ipamkit-read-scale-'));
    const sqlitePath = join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path: sqlitePath });
    await seedReadScale(ds, { ...size, batch: 1000 });
    await ds.close();
    console.error(`# seeded sqlite ${size.blocks}x${size.reservations} in ${fmt(Date.now() - t0)} ms`);
    return { job: { sqlitePath }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const prefix = `/read-scale-${size.blocks}-${size.reservations}-${process.pid}`;
  const ds = await createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix });
  await seedReadScale(ds, { ...size, batch: 100, parallel: 4 });
  await ds.close();
  console.error(`# seeded etcd ${size.blocks}x${size.reservations} in ${fmt(Date.now() - t0)} ms`);
  return { job: { endpoint: etcd.endpoint, prefix } };
}

let etcd;
if (backends.includes('etcd')) {
  if (process.env.ETCD_ENDPOINTS !== undefined) etcd = { endpoint: process.env.ETCD_ENDPOINTS.split(',')[0], stop: async () => {} };
  else etcd = await (await import('@ipamkit/test-utils')).startEtcd();
}
console.log(`# load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs, node ${process.version}`);
console.log('| backend | blocks | reservations | build | wall ms (median, range) | CPU ms (median) | peak RSS MB (max) | RSS before the call MB |');
console.log('|---|---|---|---|---|---|---|---|');
const verdicts = [];
try {
  for (const size of sizes) {
    for (const backend of backends) {
      const store = await seeded(backend, size, etcd);
      const impls = [...(backend === 'etcd' ? ['page'] : []), ...(before === undefined ? [] : ['before']), 'after'];
      const results = Object.fromEntries(impls.map((i) => [i, []]));
      for (let run = 0; run < runs; run += 1) {
        const order = run % 2 === 0 ? impls : [...impls].reverse();
        for (const impl of order) {
          if (results[impl].some((r) => r.failed !== undefined)) continue; // one failure is the row's answer
          results[impl].push(measure({ backend, ...size, impl, before, ...store.job }));
        }
      }
      const rows = {};
      for (const impl of impls) {
        const rs = results[impl];
        if (rs.some((r) => r.failed !== undefined)) {
          console.log(`| ${backend} | ${fmt(size.blocks)} | ${fmt(size.reservations)} | ${impl} | FAILED: ${rs.find((r) => r.failed).failed} | | | |`);
          continue;
        }
        const wall = rs.map((r) => r.wallMs);
        rows[impl] = { wall: median(wall), cpu: median(rs.map((r) => r.cpuMs)), peak: Math.max(...rs.map((r) => r.peakRssMB)), base: median(rs.map((r) => r.rssBeforeMB)) };
        const summary = JSON.stringify(rs[0].summary);
        if (rs.some((r) => JSON.stringify(r.summary) !== summary)) throw new Error(`${backend} ${impl}: runs disagree`);
        console.log(`| ${backend} | ${fmt(size.blocks)} | ${fmt(size.reservations)} | ${impl} | ${fmt(rows[impl].wall)} (${fmt(Math.min(...wall))}–${fmt(Math.max(...wall))}) | ${fmt(rows[impl].cpu)} | ${rows[impl].peak} | ${rows[impl].base} |`);
      }
      if (rows.before !== undefined && JSON.stringify(results.before[0].summary) !== JSON.stringify(results.after[0].summary)) {
        throw new Error(`${backend} ${size.blocks}x${size.reservations}: before and after disagree`);
      }
      if (backend === 'etcd' && rows.page !== undefined) {
        // The etcd target is a ratio: GetUtilization's wall time over the raw paging floor's.
        for (const impl of ['before', 'after']) {
          if (rows[impl] === undefined) continue;
          console.log(`RATIO etcd ${size.blocks}x${size.reservations} ${impl}/page: wall ${(rows[impl].wall / rows.page.wall).toFixed(2)} (CPU ${(rows[impl].cpu / rows.page.cpu).toFixed(2)})`);
        }
      }
      if (size.blocks === 100_000 && size.reservations === 1_000 && rows.after !== undefined) {
        const a = rows.after;
        if (backend === 'etcd' && rows.page !== undefined) verdicts.push(`etcd: ${fmt(a.wall)} ms vs paging ${fmt(rows.page.wall)} ms: ratio ${(a.wall / rows.page.wall).toFixed(2)} (≤ 1.20): ${a.wall <= rows.page.wall * 1.2 ? 'met' : 'NOT met'}`);
        else verdicts.push(`${backend}: ${fmt(a.wall)} ms (≤ 1,000), peak ${a.peak} MB (≤ 300; ${fmt(a.peak - a.base)} MB above the RSS before the call): ${a.wall <= 1000 && a.peak <= 300 ? 'met' : 'NOT met'}`);
      }
      store.cleanup?.();
    }
  }
} finally {
  await etcd?.stop();
}
for (const v of verdicts) console.log(`TARGET ${v}`);
console.log(`# load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
