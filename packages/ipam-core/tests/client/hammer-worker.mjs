// One worker process of the concurrency test (concurrency.test.ts): AutoAssign + release cycles
// against a shared SQLite file (or etcd), through the built datastore and a freshly bundled ipam-core.
// Prints one JSON line: the addresses it still holds, by handle.
// HAMMER_OPTIMISTIC=1 opens the SQLite file with `optimisticTransactions` (design/ipam-datastore.md,
// "Optimistic transactions").
const { HAMMER_CORE, HAMMER_DB, HAMMER_ETCD, HAMMER_PREFIX, HAMMER_HOST, HAMMER_WORKER, HAMMER_CYCLES, HAMMER_OPTIMISTIC } = process.env;
const core = await import(HAMMER_CORE);
const ds =
  HAMMER_ETCD === undefined
    ? (await import('@ipamkit/ipam-datastore/sqlite')).createSqliteDatastore({ path: HAMMER_DB, busyTimeoutMs: 30_000, optimisticTransactions: HAMMER_OPTIMISTIC === '1' })
    : (await import('@ipamkit/ipam-datastore/etcd')).createEtcdDatastore({ endpoints: [HAMMER_ETCD], prefix: HAMMER_PREFIX });
const ipam = core.createIpamClient({ datastore: ds });
const kept = {};
let shortResults = 0;
// Calls that gave up after Calico's 100 attempts (MaxRetriesError): under this much contention a
// loser can keep losing to a peer on the same host. Such a call changed nothing (the allocation is
// one transaction) or, for a release, left the address allocated: counted, and what stays
// allocated is reported as kept, so the test's accounting still covers every address.
let exhausted = 0;
const gaveUp = (err) => {
  if (err?.name !== 'MaxRetriesError') throw err;
  exhausted += 1;
};
for (let i = 0; i < Number(HAMMER_CYCLES); i += 1) {
  const handleId = `w${HAMMER_WORKER}-c${i}`;
  let assigned;
  try {
    assigned = await ipam.autoAssign({ num4: 1, hostname: HAMMER_HOST, handleId, intendedUse: 'Workload', attrs: { pod: handleId } });
  } catch (err) {
    gaveUp(err);
    continue;
  }
  const { ipv4 } = assigned;
  if (ipv4 === undefined || ipv4.ips.length !== 1) {
    shortResults += 1;
    continue;
  }
  const ip = ipv4.ips[0].split('/')[0];
  try {
    if (i % 4 === 3) {
      kept[handleId] = ip;
    } else if (i % 2 === 0) {
      await ipam.releaseByHandle(handleId);
    } else {
      await ipam.releaseIPs([{ address: ip, handle: handleId }]);
    }
  } catch (err) {
    gaveUp(err);
    kept[handleId] = ip;
  }
}
await ds.close();
process.stdout.write(`${JSON.stringify({ kept, shortResults, exhausted })}\n`);
