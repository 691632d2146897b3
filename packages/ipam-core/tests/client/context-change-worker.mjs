// The "other process" of cached-context.test.ts: opens the shared SQLite file (or etcd prefix)
// through the built datastore and applies one change to pools, the IPAM config or reservations,
// then exits. The change arrives as JSON in CHANGE.
const { CHANGE_DB, CHANGE_ETCD, CHANGE_PREFIX, CHANGE } = process.env;
const ds =
  CHANGE_ETCD === undefined
    ? (await import('@ipamkit/ipam-datastore/sqlite')).createSqliteDatastore({ path: CHANGE_DB, busyTimeoutMs: 30_000 })
    : (await import('@ipamkit/ipam-datastore/etcd')).createEtcdDatastore({ endpoints: [CHANGE_ETCD], prefix: CHANGE_PREFIX });
const change = JSON.parse(CHANGE);
try {
  for (const step of change) {
    if (step.op === 'updatePool') await ds.ipPools.update({ ...(await ds.ipPools.get(step.name)), ...step.set });
    else if (step.op === 'createPool') await ds.ipPools.create(step.pool);
    else if (step.op === 'setConfig') {
      let current;
      try {
        current = await ds.ipamConfig.get();
      } catch {
        current = undefined;
      }
      if (current === undefined) await ds.ipamConfig.create(step.config);
      else await ds.ipamConfig.update({ ...step.config, revision: current.revision });
    } else if (step.op === 'createReservation') await ds.ipReservations.create(step.reservation);
    else throw new Error(`unknown step ${step.op}`);
  }
} finally {
  await ds.close();
}
process.stdout.write('done\n');
