// ADD+DEL latency of the calico-ipam bin beside Debian's Go host-local plugin (spec/toolchain.md §5).
// Usage: npm run bench -w @ipamkit/cni   (BENCH_RUNS=200 by default; build first with tsup)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const BIN = fileURLToPath(new URL('../dist/calico-ipam.cjs', import.meta.url));
const HOST_LOCAL = '/usr/lib/cni/host-local';
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npx --no-install tsup" first`);
if (!existsSync(HOST_LOCAL)) throw new Error(`${HOST_LOCAL} is missing: apt-get install containernetworking-plugins`);

const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-bench-'));
// Gotcha G1: NODE_EXTRA_CA_CERTS adds ~40 ms to every node start; a CNI runtime does not set it.
const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;

const ours = JSON.stringify({
  cniVersion: '1.0.0', name: 'bench-net', type: 'calico', nodename: 'bench-node',
  datastore_type: 'sqlite', sqlite_path: join(dir, 'ipam.db'), ipam_lock_file: join(dir, 'ipam.lock'),
  ipam: { type: 'calico-ipam' },
});
const hostLocal = JSON.stringify({
  cniVersion: '1.0.0', name: 'ipam-bench', type: 'bridge',
  ipam: { type: 'host-local', ranges: [[{ subnet: '10.10.0.0/16' }]], dataDir: join(dir, 'cni-data') },
});

// CPU of reaped children (cutime + cstime, in clock ticks of 10 ms) from /proc/self/stat: the
// machine is shared, so CPU time is the steadier measure (spec/toolchain.md G13).
function childCpuTicks() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return Number(fields[13]) + Number(fields[14]);
}
const cpu = { ours: 0, hl: 0 };

function timed(command, args, verb, id, stdin) {
  const ticks = childCpuTicks();
  const env = { ...baseEnv, CNI_COMMAND: verb, CNI_CONTAINERID: id, CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni' };
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { env, input: stdin, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${verb} ${id} failed (${r.status}): ${r.stdout}${r.stderr}`);
  cpu[command === HOST_LOCAL ? 'hl' : 'ours'] += childCpuTicks() - ticks;
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

try {
  const ds = await createDatastore({ type: 'sqlite', path: join(dir, 'ipam.db') });
  await ds.nodes.create({ name: 'bench-node' });
  await ds.ipPools.create({ name: 'bench-pool', cidr: '10.90.0.0/16', blockSize: 26 });
  await ds.close();

  const t = { oursAdd: [], oursDel: [], hlAdd: [], hlDel: [] };
  // Interleaved so that machine noise (spec/toolchain.md G13) hits both plugins alike.
  for (let i = 0; i < RUNS; i++) {
    const id = `bench-${i}`;
    t.oursAdd.push(timed(process.execPath, [BIN], 'ADD', id, ours));
    t.hlAdd.push(timed(HOST_LOCAL, [], 'ADD', id, hostLocal));
    t.oursDel.push(timed(process.execPath, [BIN], 'DEL', id, ours));
    t.hlDel.push(timed(HOST_LOCAL, [], 'DEL', id, hostLocal));
  }
  const sum = (a, b) => a.map((x, i) => x + b[i]);
  const oursBoth = sum(t.oursAdd, t.oursDel);
  const hlBoth = sum(t.hlAdd, t.hlDel);
  const row = (name, xs) => `${name.padEnd(22)} median ${median(xs).toFixed(1).padStart(7)} ms   p95 ${p95(xs).toFixed(1).padStart(7)} ms`;
  console.log(`calico-ipam (${(statSync(BIN).size / 1024).toFixed(0)} KB bundle, SQLite) vs host-local, ${RUNS} runs, NODE_EXTRA_CA_CERTS unset`);
  console.log(row('calico-ipam ADD', t.oursAdd));
  console.log(row('calico-ipam DEL', t.oursDel));
  console.log(row('host-local ADD', t.hlAdd));
  console.log(row('host-local DEL', t.hlDel));
  console.log(row('calico-ipam ADD+DEL', oursBoth));
  console.log(row('host-local ADD+DEL', hlBoth));
  console.log(`ratio of medians (ADD+DEL): ${(median(oursBoth) / median(hlBoth)).toFixed(2)}x`);
  const perPair = (ticks) => ((ticks * 10) / RUNS).toFixed(1);
  console.log(`CPU per ADD+DEL (user+sys, mean): calico-ipam ${perPair(cpu.ours)} ms, host-local ${perPair(cpu.hl)} ms, ratio ${(cpu.ours / Math.max(1, cpu.hl)).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
