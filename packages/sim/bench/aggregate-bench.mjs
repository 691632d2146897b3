// `npm run bench` at the repository root: runs every package's `bench` target through nx (which
// builds what it needs first), one after another so that they do not measure each other, and writes
// bench-results/summary.json and bench-results/summary.md with the ratios of the performance table.
// BENCH_PROJECTS=@ipamkit/sim,@ipamkit/gc limits the run to those packages.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const outDir = join(root, 'bench-results');
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 30 * 60_000);

/** Packages with a bench script, sim last (it measures the whole stack). */
function benchPackages() {
  const dirs = readdirSync(join(root, 'packages')).filter((d) => existsSync(join(root, 'packages', d, 'package.json')));
  const withBench = dirs
    .map((d) => JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')))
    .filter((p) => typeof p.scripts?.bench === 'string')
    .map((p) => p.name);
  const only = process.env.BENCH_PROJECTS?.split(',').filter((p) => p !== '');
  const chosen = only === undefined || only.length === 0 ? withBench : withBench.filter((p) => only.includes(p));
  return chosen.sort((a, b) => (a === '@ipamkit/sim') - (b === '@ipamkit/sim') || a.localeCompare(b));
}

/** The last JSON object the output holds: a one-line object, or a pretty-printed one to the end. */
function lastJson(text) {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].startsWith('{')) continue;
    for (const candidate of [lines[i], lines.slice(i).join('\n')]) {
      try {
        return JSON.parse(candidate);
      } catch {
        // Not this one.
      }
    }
  }
  return undefined;
}

function run(project) {
  const started = Date.now();
  const r = spawnSync('npx', ['--no-install', 'nx', 'run', `${project}:bench`, '--outputStyle=static'], {
    cwd: root,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    maxBuffer: 64 * 2 ** 20,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  process.stdout.write(output);
  return { project, exitCode: r.status ?? 1, seconds: Math.round((Date.now() - started) / 1000), json: lastJson(r.stdout ?? ''), output };
}

const get = (obj, ...path) => path.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);
const num = (v, digits = 2) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

/** The ratios of the performance table, from whichever bench measured them. */
function headline(byProject) {
  const core = byProject['@ipamkit/ipam-core']?.json;
  const cni = byProject['@ipamkit/cni']?.output ?? '';
  const gc = byProject['@ipamkit/gc']?.json;
  const sim = byProject['@ipamkit/sim']?.json;
  const rows = [];
  for (const backend of ['sqlite', 'etcd', 'kubernetes']) {
    rows.push([`round trips per AutoAssign, ${backend} (ipam-core)`, num(get(core, 'results', backend, 'waves'), 0)]);
  }
  for (const backend of ['sqlite', 'etcd']) rows.push([`round trips per CNI ADD, ${backend} (sim)`, num(get(sim, 'results', backend, 'roundTripsPerAdd'))]);
  for (const backend of ['sqlite', 'etcd']) {
    const r = get(core, 'results', backend) ?? {};
    for (const [mode, v] of Object.entries(r)) {
      if (v !== null && typeof v === 'object' && 'ratio' in v) rows.push([`allocation rate ÷ raw CAS rate, ${backend} ${mode}`, num(v.ratio)]);
    }
  }
  const cniRatio = /ratio of medians \(ADD\+DEL\): ([\d.]+)x/.exec(cni)?.[1];
  rows.push(['CNI ADD+DEL ÷ host-local (median)', cniRatio ?? 'n/a']);
  rows.push(['GC full sync time (ms)', num(get(gc, 'fullSyncMs'), 0)]);
  rows.push(['GC peak RSS (MB)', num(get(gc, 'peakRssMb'), 0)]);
  rows.push(['utilization read of the simulated cluster, sqlite (ms)', num(get(sim, 'results', 'sqlite', 'utilizationMs'), 1)]);
  rows.push(['simulated allocations per second, sqlite', num(get(sim, 'results', 'sqlite', 'allocationsPerSecond'), 1)]);
  rows.push(['hammer operations per second, sqlite', num(get(sim, 'results', 'hammerSqlite', 'opsPerSecond'), 1)]);
  return rows;
}

const results = benchPackages().map(run);
const byProject = Object.fromEntries(results.map((r) => [r.project, r]));
const rows = headline(byProject);
mkdirSync(outDir, { recursive: true });
const summary = {
  generatedAt: new Date().toISOString(),
  node: process.version,
  headline: Object.fromEntries(rows),
  packages: results.map(({ project, exitCode, seconds, json }) => ({ project, exitCode, seconds, json: json ?? null })),
};
writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
const md = [
  '# ipamkit benchmarks',
  '',
  `${summary.generatedAt}, Node ${process.version}. Raw numbers per package: summary.json.`,
  '',
  '| measure | value |',
  '|---|---|',
  ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  '',
  '| package bench | exit | seconds |',
  '|---|---|---|',
  ...results.map((r) => `| ${r.project} | ${r.exitCode} | ${r.seconds} |`),
  '',
];
writeFileSync(join(outDir, 'summary.md'), md.join('\n'));
console.log(`\nwrote ${join(outDir, 'summary.json')} and summary.md`);
if (results.some((r) => r.exitCode !== 0)) process.exitCode = 1;
