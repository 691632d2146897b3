// `node bench/context-ab.mjs` (on the built packages): the assignment-context cache's own effect,
// as an A/B inside one process (design/ipam-core.md, "The cached assignment context, measured").
// Two clients of this build on two stores, cache on and off, run the bench's churn (one address
// with the CNI's attributes, release of the oldest of 40 live pods): 500 pairs of warm-up each,
// then N pairs each in interleaved rounds of 100 (alternating order), so the machine's load hits
// both alike; prints each side's CPU per pair. ETCD=1 runs it on a real etcd (startEtcd), else on
// SQLite files (WAL, synchronous=NORMAL). BOTH=0 runs only the side CACHE names (for --cpu-prof).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteDatastore } from '@ipamkit/ipam-datastore/sqlite';
import { createIpamClient } from '../dist/index.js';
const CACHE = process.env.CACHE !== '0';
const N = Number(process.env.N ?? 3000);
// Two interleaved clients on two files: cache on and off, alternating blocks of 100 pairs.
let etcd;
if (process.env.ETCD === '1') etcd = await (await import('@ipamkit/test-utils')).startEtcd();
let n = 0;
async function churn(cache) {
  const ds = etcd !== undefined
    ? (await import('@ipamkit/ipam-datastore/etcd')).createEtcdDatastore({ endpoints: [etcd.endpoint], prefix: `/p${n++}` })
    : createSqliteDatastore({ path: join(mkdtempSync(join(tmpdir(), 'prof-')), 'x.db'), synchronous: 'NORMAL' });
  await ds.ipPools.create({ name: 'bench', cidr: '10.0.0.0/16', blockSize: 26 });
  await ds.nodes.create({ name: 'h' });
  const ipam = createIpamClient({ datastore: ds, cacheAssignContext: cache });
  const live = [];
  let next = 0;
  return async () => {
    const handleId = `h-${next++}`;
    const attrs = { node: 'h', namespace: 'default', pod: `pod-${next}`, timestamp: '2026-12-01 18:00:00.000000000 +0000 UTC' };
    await ipam.autoAssign({ num4: 1, hostname: 'h', handleId, attrs, intendedUse: 'Workload' });
    live.push(handleId);
    if (live.length > 40) await ipam.releaseByHandle(live.shift());
  };
}
const sides = process.env.BOTH !== '0' ? [true, false] : [CACHE];
const pairs = await Promise.all(sides.map((c) => churn(c)));
for (const p of pairs) for (let i = 0; i < 500; i++) await p();
const cpu = sides.map(() => 0);
for (let r = 0; r < N / 100; r++) {
  for (const [i, p] of (r % 2 ? [...pairs.entries()].reverse() : [...pairs.entries()])) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < 100; k++) await p();
    const d = process.cpuUsage(c0);
    cpu[i] += d.user + d.system;
  }
}
await etcd?.stop();
console.log(sides.map((c, i) => `cache ${c ? 'on' : 'off'}: ${(cpu[i] / N).toFixed(0)} µs CPU/pair`).join(', '));
