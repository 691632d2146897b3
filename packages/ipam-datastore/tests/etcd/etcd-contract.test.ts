import { Etcd3 } from 'etcd3';
import { afterAll } from 'vitest';
import { runDatastoreContract, withEtcd, type SoftDeletedRow } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { affinityKind, blockKind, handleKind, type EtcdKind } from '../../src/etcd/etcd-layout.js';

const etcd = withEtcd();
let raw: Etcd3 | undefined;
let run = 0;

const rawClient = (): Etcd3 => (raw ??= new Etcd3({ hosts: etcd.endpoint }));
afterAll(() => raw?.close());

function encodeRaw(row: SoftDeletedRow): { key: string; value: string } {
  const kind = { block: blockKind, affinity: affinityKind, handle: handleKind }[row.kind] as unknown as EtcdKind<unknown, unknown>;
  return { key: kind.key(kind.idOf(row.value)), value: kind.encode(row.value) };
}

// Every test gets its own key prefix on one shared etcd, so tests cannot see each other's keys.
runDatastoreContract('etcd', () => {
  const prefix = `/contract-${process.pid}-${++run}`;
  const datastore = createEtcdDatastore({ endpoints: [etcd.endpoint], prefix });
  return Promise.resolve({
    datastore,
    cleanup: async () => {
      await datastore.close();
      await rawClient().delete().prefix(`${prefix}/`).exec();
    },
    injectSoftDeleted: async (row) => {
      const { key, value } = encodeRaw(row);
      await rawClient().put(prefix + key).value(value).exec();
    },
  });
});
