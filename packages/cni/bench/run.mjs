// The cost of one plugin call (issue 16, design/cni.md "Start-up cost"): ADD, DEL and VERSION of the
// shipped single executable against `node -e 0` and Debian's host-local, in one process tree and in
// alternating order, on SQLite, a real etcd and the Kubernetes API test server; then 100 pods ADDed on
// one node by 10 parallel callers, beside 100 starts of `node -e 0` by 10 callers (its floor). Prints a table, PASS/FAIL per target, and a one-line JSON summary.
// Usage: npm run bench -w @ipamkit/cni   (BENCH_RUNS=40 rounds per backend; BENCH_BACKENDS=SQLite,etcd;
// BENCH_EXECUTABLE=path/to/calico-ipam or a .cjs bundle to measure another build)
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { etcdBackend, kubernetesBackend, sqliteBackend } from './backends.mjs';
import { childCpuTicks, GNU_TIME, median, peakRssMb, run, Series, TICK_MS } from './measure.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const ONLY = process.env.BENCH_BACKENDS?.split(',').filter((b) => b !== '');
const EXE = process.env.BENCH_EXECUTABLE ?? fileURLToPath(new URL('../dist/calico-ipam', import.meta.url));
const HOST_LOCAL = '/usr/lib/cni/host-local';
const PODS = 100;
const CALLERS = 10;
for (const file of [EXE, HOST_LOCAL, GNU_TIME]) {
  if (!existsSync(file)) throw new Error(`${file} is missing (build with "npm run build -w @ipamkit/cni"; apt-get install containernetworking-plugins time)`);
}

// NODE_EXTRA_CA_CERTS adds ~40 ms to every node start (design/toolchain.md, "Node startup"); a CNI runtime does not set it.
const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;
const cniEnv = (verb, id, args) => ({
  ...baseEnv, CNI_COMMAND: verb, CNI_CONTAINERID: id, CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni',
  ...(args === undefined ? {} : { CNI_ARGS: args }),
});

const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-bench-'));
/**
 * The executable is measured as a node runs it: copied, with the SQLite addon beside it, as the
 * README's install steps do. The file the build has just written is not: its pages, fresh in the
 * page cache, are mapped larger (a VERSION call peaked at 52 MB from dist/ against 35 MB from a
 * copy of the same file, with the same CPU time).
 */
function install(exe) {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const installed = join(bin, basename(exe));
  copyFileSync(exe, installed);
  const addon = join(dirname(exe), 'better_sqlite3.node');
  if (existsSync(addon)) copyFileSync(addon, join(bin, 'better_sqlite3.node'));
  return installed;
}
// A `.cjs` bundle (e.g. an older build, for a before/after table) runs under this process's node.
const [EXE_CMD, EXE_ARGS] = EXE.endsWith('.cjs') ? [process.execPath, [EXE]] : [install(EXE), []];
const hostLocalConf = JSON.stringify({
  cniVersion: '1.0.0', name: 'ipam-bench', type: 'bridge',
  ipam: { type: 'host-local', ranges: [[{ subnet: '10.10.0.0/16' }]], dataDir: join(dir, 'host-local') },
});

/** RUNS rounds of node -e 0, ADD, DEL, VERSION and host-local ADD/DEL, the order alternating per round. */
async function timeCalls(backend) {
  const s = {
    node: new Series('node -e 0'), add: new Series(`${backend.name} ADD`), del: new Series(`${backend.name} DEL`),
    version: new Series('VERSION'), hlAdd: new Series('host-local ADD'), hlDel: new Series('host-local DEL'),
  };
  const node = () => s.node.time(process.execPath, ['-e', '0'], baseEnv);
  const version = () => s.version.time(EXE_CMD, EXE_ARGS, cniEnv('VERSION', 'v'));
  for (let i = 0; i < RUNS; i++) {
    const id = `${backend.name.toLowerCase()}-${i}`;
    const args = await backend.cniArgs(id);
    const add = () => s.add.time(EXE_CMD, EXE_ARGS, cniEnv('ADD', id, args), backend.conf);
    const del = () => s.del.time(EXE_CMD, EXE_ARGS, cniEnv('DEL', id, args), backend.conf);
    const hlAdd = () => s.hlAdd.time(HOST_LOCAL, [], cniEnv('ADD', id), hostLocalConf);
    const hlDel = () => s.hlDel.time(HOST_LOCAL, [], cniEnv('DEL', id), hostLocalConf);
    const order = i % 2 === 0 ? [node, add, hlAdd, del, hlDel, version] : [hlAdd, add, node, version, hlDel, del];
    for (const call of order) await call();
  }
  return s;
}

/** Peak RSS of one call: the largest of a few ADD, DEL and VERSION calls under GNU time. */
async function peakRss(backend) {
  let peak = 0;
  for (let i = 0; i < 3; i++) {
    const id = `rss-${i}`;
    const args = await backend.cniArgs(id);
    peak = Math.max(peak, await peakRssMb(EXE_CMD, EXE_ARGS, cniEnv('ADD', id, args), backend.conf));
    peak = Math.max(peak, await peakRssMb(EXE_CMD, EXE_ARGS, cniEnv('DEL', id, args), backend.conf));
    peak = Math.max(peak, await peakRssMb(EXE_CMD, EXE_ARGS, cniEnv('VERSION', id)));
  }
  return peak;
}

/**
 * PODS calls by CALLERS concurrent callers, each caller taking every CALLERS-th index; `call(i)`
 * spawns one. Returns the wall ms and the CPU ms per call of the spawned processes.
 */
async function inParallel(call) {
  const ticks = childCpuTicks();
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CALLERS }, async (_, k) => {
    for (let i = k; i < PODS; i += CALLERS) await call(i);
  }));
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: ((childCpuTicks() - ticks) * TICK_MS) / PODS };
}

/**
 * The machine's own floor for the 100-pod run: PODS starts of `node -e 0` by CALLERS callers
 * (design/cni.md, "The 100-pod target and its floor"). On two cores the run is bound by the CPU of
 * every process started, so no plugin built on Node can finish PODS calls much faster than this.
 */
function parallelNodeStarts() {
  return inParallel(async () => {
    const r = await run(process.execPath, ['-e', '0'], baseEnv);
    if (r.code !== 0) throw new Error(`node -e 0 failed (exit ${r.code})`);
  });
}

/** PODS ADDs by CALLERS concurrent callers on one node (one host lock), as kubelet starts pods. */
async function parallelPods(backend) {
  const ids = Array.from({ length: PODS }, (_, i) => `par-${i}`);
  const args = new Map(await Promise.all(ids.map(async (id) => [id, await backend.cniArgs(id)])));
  const addresses = [];
  const call = (verb) => async (i) => {
    const r = await run(EXE_CMD, EXE_ARGS, cniEnv(verb, ids[i], args.get(ids[i])), backend.conf);
    if (r.code !== 0) throw new Error(`${verb} ${ids[i]} failed (exit ${r.code}): ${r.stdout}`.slice(0, 2000));
    if (verb === 'ADD') addresses.push(JSON.parse(r.stdout).ips[0].address);
  };
  const add = await inParallel(call('ADD'));
  if (new Set(addresses).size !== PODS) throw new Error(`${backend.name}: ${PODS} parallel ADDs gave ${new Set(addresses).size} distinct addresses`);
  await inParallel(call('DEL'));
  return add;
}

/** The pods run between two runs of its floor, so that a machine that changes speed shows in both. */
async function podsBesideFloor(backend) {
  const before = await parallelNodeStarts();
  const pods = await parallelPods(backend);
  const after = await parallelNodeStarts();
  const floorMs = (before.ms + after.ms) / 2;
  return { pods, floorMs, floorCpuMs: (before.cpuMs + after.cpuMs) / 2, ratio: pods.ms / floorMs };
}

const TARGETS = { addDel: { SQLite: 1.3, etcd: 1.5, Kubernetes: 1.5 }, version: 1.1, rssMb: 60, podsMs: 5000 };
const results = {};
const checks = [];
const check = (name, value, limit, unit) => checks.push({ name, value, limit, unit, pass: value <= limit });
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

const starts = { SQLite: sqliteBackend, etcd: etcdBackend, Kubernetes: kubernetesBackend };
try {
  for (const [name, start] of Object.entries(starts)) {
    if (ONLY !== undefined && ONLY.length > 0 && !ONLY.includes(name)) continue;
    const backendDir = mkdtempSync(join(dir, `${name}-`));
    const backend = await start(backendDir);
    try {
      const s = await timeCalls(backend);
      const rss = await peakRss(backend);
      const { pods, floorMs, floorCpuMs, ratio: podsRatio } = await podsBesideFloor(backend);
      const podsMs = pods.ms;
      const n = s.node.median;
      const r = {
        nodeMs: n, nodeCpuMs: s.node.cpuMs,
        addMs: s.add.median, addP95Ms: s.add.p95, addRatio: s.add.median / n, addCpuMs: s.add.cpuMs,
        delMs: s.del.median, delP95Ms: s.del.p95, delRatio: s.del.median / n, delCpuMs: s.del.cpuMs,
        versionMs: s.version.median, versionRatio: s.version.median / n, versionCpuMs: s.version.cpuMs,
        hostLocalAddMs: s.hlAdd.median, hostLocalDelMs: s.hlDel.median, hostLocalCpuMs: (s.hlAdd.cpuMs + s.hlDel.cpuMs) / 2,
        addDelRatioToHostLocal: median(s.add.ms.map((x, i) => x + s.del.ms[i])) / median(s.hlAdd.ms.map((x, i) => x + s.hlDel.ms[i])),
        peakRssMb: rss, pods100Ms: podsMs, pods100CpuMsPerCall: pods.cpuMs,
        nodeStarts100Ms: floorMs, nodeStarts100CpuMsPerCall: floorCpuMs, pods100RatioToNodeStarts: podsRatio,
      };
      results[name] = r;
      console.log(`\n${name}: ${RUNS} rounds, NODE_EXTRA_CA_CERTS unset, ${EXE}`);
      console.log(`  call          median ms   p95 ms  ÷ node -e 0   CPU ms/call`);
      const row = (label, series, ratio) => console.log(`  ${label.padEnd(13)} ${fmt(series.median).padStart(9)} ${fmt(series.p95).padStart(8)} ${(ratio === undefined ? '' : `${fmt(ratio, 2)}x`).padStart(12)} ${fmt(series.cpuMs).padStart(13)}`);
      row('node -e 0', s.node);
      row('ADD', s.add, r.addRatio);
      row('DEL', s.del, r.delRatio);
      row('VERSION', s.version, r.versionRatio);
      row('host-local ADD', s.hlAdd);
      row('host-local DEL', s.hlDel);
      console.log(`  peak RSS of one call ${fmt(rss)} MB`);
      console.log(`  ${PODS} pods by ${CALLERS} parallel callers: ${fmt(podsMs, 0)} ms (${fmt(pods.cpuMs)} ms CPU per call)`);
      console.log(`  its floor, ${PODS} × node -e 0 by ${CALLERS} callers (before and after): ${fmt(floorMs, 0)} ms (${fmt(floorCpuMs)} ms CPU per start); pods ÷ floor ${fmt(podsRatio, 2)}x`);
      check(`${name} ADD ÷ node -e 0`, r.addRatio, TARGETS.addDel[name], 'x');
      check(`${name} DEL ÷ node -e 0`, r.delRatio, TARGETS.addDel[name], 'x');
      check(`${name} VERSION ÷ node -e 0`, r.versionRatio, TARGETS.version, 'x');
      check(`${name} peak RSS`, rss, TARGETS.rssMb, ' MB');
      check(`${name} ${PODS} pods, ${CALLERS} callers`, podsMs, TARGETS.podsMs, ' ms');
    } catch (err) {
      // One backend failing (e.g. a client the executable does not contain) must not hide the others.
      const message = err instanceof Error ? err.message : String(err);
      results[name] = { error: message };
      console.log(`\n${name}: FAILED: ${message}`);
      checks.push({ name: `${name} calls succeed`, value: Number.NaN, limit: 0, unit: '', pass: false });
    } finally {
      await backend.stop();
    }
  }
  console.log('\ntargets:');
  for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name}${Number.isNaN(c.value) ? '' : `: ${fmt(c.value, c.unit === 'x' ? 2 : 1)}${c.unit} (target ≤ ${c.limit}${c.unit})`}`);
  if (results.SQLite?.addDelRatioToHostLocal !== undefined) console.log(`ratio of medians (ADD+DEL): ${results.SQLite.addDelRatioToHostLocal.toFixed(2)}x (the executable on SQLite ÷ host-local)`);
  console.log(JSON.stringify({ bench: 'cni', runs: RUNS, executable: EXE, results, targets: checks }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
