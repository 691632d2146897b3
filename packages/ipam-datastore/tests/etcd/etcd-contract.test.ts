import type { Etcd3 } from 'etcd3';
import { afterAll, describe } from 'vitest';
import { runDatastoreContract, withEtcd, type EtcdFixture, type SoftDeletedRow } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { affinityKind, blockKind, handleKind, type EtcdKind } from '../../src/etcd/etcd-layout.js';
import { ETCD_CLIENTS, rawEtcd, securityOf, type EtcdClientName } from './support/etcd-clients.js';

let run = 0;

function encodeRaw(row: SoftDeletedRow): { key: string; value: string } {
  const kind = { block: blockKind, affinity: affinityKind, handle: handleKind }[row.kind] as unknown as EtcdKind<unknown, unknown>;
  return { key: kind.key(kind.idOf(row.value)), value: kind.encode(row.value) };
}

/** The whole contract suite with `client` against `etcd`; every test gets its own key prefix. */
function contract(name: string, etcd: EtcdFixture, client: EtcdClientName): void {
  let raw: Etcd3 | undefined;
  const rawClient = (): Etcd3 => (raw ??= rawEtcd(etcd.handle));
  afterAll(() => raw?.close());
  runDatastoreContract(name, () => {
    const prefix = `/contract-${process.pid}-${++run}`;
    const datastore = createEtcdDatastore({ endpoints: [etcd.endpoint], prefix, client, ...securityOf(etcd.handle) });
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
}

describe('plain etcd', () => {
  const etcd = withEtcd();
  for (const client of ETCD_CLIENTS) contract(`etcd (${client} client)`, etcd, client);
});

// The whole suite (CAS, transactions, watches, compaction) over mutual TLS and over etcd's own
// authentication, with both clients: a real Calico etcd deployment uses one or both.
describe('etcd with mutual TLS (client certificates)', () => {
  const etcd = withEtcd({ tls: true });
  for (const client of ETCD_CLIENTS) contract(`etcd over TLS (${client} client)`, etcd, client);
});

describe('etcd with username/password authentication', () => {
  const etcd = withEtcd({ auth: true });
  for (const client of ETCD_CLIENTS) contract(`etcd with auth (${client} client)`, etcd, client);
});
