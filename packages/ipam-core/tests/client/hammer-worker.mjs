// One worker process of the concurrency test (concurrency.test.ts): AutoAssign + release cycles
// against a shared SQLite file (or etcd), through the built datastore and a freshly bundled ipam-core.
// Prints one JSON line: the addresses it still holds, by handle.
const { HAMMER_CORE, HAMMER_DB, HAMMER_ETCD, HAMMER_PREFIX, HAMMER_HOST, HAMMER_WORKER, HAMMER_CYCLES } = process.env;
const core = await import(HAMMER_CORE);
const ds =
  HAMMER_ETCD === undefined
    ? (await import('@ipamkit/ipam-datastore/sqlite')).createSqliteDatastore({ path: HAMMER_DB, busyTimeoutMs: 30_000 })
    : (await import('@ipamkit/ipam-datastore/etcd')).createEtcdDatastore({ endpoints: [HAMMER_ETCD], prefix: HAMMER_PREFIX });
const ipam = core.createIpamClient({ datastore: ds });
const kept = {};
let shortResults = 0;
for (let i = 0; i < Number(HAMMER_CYCLES); i += 1) {
  const handleId = `w${HAMMER_WORKER}-c${i}`;
  const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: HAMMER_HOST, handleId, intendedUse: 'Workload', attrs: { pod: handleId } });
  if (ipv4 === undefined || ipv4.ips.length !== 1) {
    shortResults += 1;
    continue;
  }
  const ip = ipv4.ips[0].split('/')[0];
  if (i % 4 === 3) {
    kept[handleId] = ip;
  } else if (i % 2 === 0) {
    await ipam.releaseByHandle(handleId);
  } else {
    await ipam.releaseIPs([{ address: ip, handle: handleId }]);
  }
}
await ds.close();
process.stdout.write(`${JSON.stringify({ kept, shortResults })}\n`);
