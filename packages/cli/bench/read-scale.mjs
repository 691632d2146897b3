// `npm run bench:read-scale -w @ipamkit/cli` (after the build): `ipamkit ipam show` and `ipamkit
// ipam check` (no cluster state) through the built bin, each run a fresh process measured by
// /usr/bin/time (wall, user + system CPU, peak RSS), on a SQLite file holding ipam-core's
// read-scale shape (one pool of /26 blocks made with newBlock, IPReservations spread over them:
// ../../ipam-core/bench/read-scale-seed.mjs). Targets (design/cli.md, "Reading at scale"): 100,000
// blocks with 1,000 reservations, each command ≤ 2 s wall and ≤ 300 MB peak RSS.
//
// Environment: READ_SCALE_SIZES (default 100000x1000), READ_SCALE_RUNS (default 3),
// READ_SCALE_BEFORE_BIN (another build's dist/bin.js, with its own ipam-core resolvable beside
// it: adds `before` rows, run interleaved with this build's on the same file).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { seedReadScale } from '../../ipam-core/bench/read-scale-seed.mjs';

const bins = {
  ...(process.env.READ_SCALE_BEFORE_BIN === undefined ? {} : { before: process.env.READ_SCALE_BEFORE_BIN }),
  after: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
};
const runs = Number(process.env.READ_SCALE_RUNS ?? 3);
const sizes = (process.env.READ_SCALE_SIZES ?? '100000x1000').split(',').map((s) => s.split('x').map(Number));
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS; // ~40 ms per node start (design/toolchain.md, "Node startup")
const COMMANDS = { show: ['ipam', 'show'], 'show --show-blocks': ['ipam', 'show', '--show-blocks'], check: ['ipam', 'check'] };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** One run of the bin; exit 1 from `check` (problems found) is a result, not a failure. */
function timed(bin, args, path) {
  const res = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, bin, ...args, '--datastore', 'sqlite', '--sqlite-path', path], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  const line = res.stderr.split('\n').find((l) => l.startsWith('TIME '));
  const resultCodes = args[1] === 'check' ? [0, 1] : [0];
  if (line === undefined || !resultCodes.includes(res.status)) throw new Error(`ipamkit ${args.join(' ')} failed: ${res.stderr}`);
  const [, wall, user, sys, maxKb] = line.split(' ').map(Number);
  return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, peakMB: maxKb / 1024 };
}

console.log(`# load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
console.log('| command | blocks | reservations | build | wall ms (median, range) | CPU ms (median) | peak RSS MB (max) |');
console.log('|---|---|---|---|---|---|---|');
for (const [blocks, reservations] of sizes) {
  const dir = mkdtempSync(join(os.tmpdir(), 'ipamkit-cli-read-scale-'));
  const path = join(dir, 'ipam.db');
  try {
    const ds = await createDatastore({ type: 'sqlite', path });
    await seedReadScale(ds, { blocks, reservations, batch: 1000 });
    await ds.close();
    for (const [name, args] of Object.entries(COMMANDS)) {
      const results = Object.fromEntries(Object.keys(bins).map((b) => [b, []]));
      for (let run = 0; run < runs; run += 1) {
        const order = run % 2 === 0 ? Object.keys(bins) : Object.keys(bins).reverse();
        for (const build of order) results[build].push(timed(bins[build], args, path));
      }
      for (const [build, rs] of Object.entries(results)) {
        const wall = rs.map((r) => r.wallMs);
        const peak = Math.max(...rs.map((r) => r.peakMB));
        console.log(`| ${name} | ${fmt(blocks)} | ${fmt(reservations)} | ${build} | ${fmt(median(wall))} (${fmt(Math.min(...wall))}–${fmt(Math.max(...wall))}) | ${fmt(median(rs.map((r) => r.cpuMs)))} | ${peak.toFixed(1)} |`);
        if (build === 'after' && blocks === 100_000 && reservations === 1_000 && name !== 'show --show-blocks') {
          console.log(`TARGET ${name}: ${fmt(median(wall))} ms (≤ 2,000), ${peak.toFixed(1)} MB (≤ 300): ${median(wall) <= 2000 && peak <= 300 ? 'met' : 'NOT met'}`);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`# load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
