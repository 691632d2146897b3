import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { stringifyWireJson, type Datastore, type IPPool } from '@ipamkit/models';

/** A datastore the tests set up and inspect, plus the network-config keys that make runCni use it. */
export interface TestBackend {
  readonly name: 'sqlite' | 'etcd';
  readonly ds: Datastore;
  readonly confKeys: Record<string, unknown>;
  readonly dir: string;
  close(): Promise<void>;
}

let counter = 0;

export async function sqliteBackend(): Promise<TestBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-'));
  const path = join(dir, 'ipam.db');
  const ds = await createDatastore({ type: 'sqlite', path });
  return {
    name: 'sqlite',
    ds,
    dir,
    confKeys: { datastore_type: 'sqlite', sqlite_path: path, ipam_lock_file: join(dir, 'ipam.lock') },
    async close() {
      await ds.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh key prefix in a shared etcd, so tests never see each other's objects. */
export async function etcdBackend(endpoint: string): Promise<TestBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-'));
  counter += 1;
  const prefix = `/cni-test-${process.pid}-${counter}`;
  const ds = await createDatastore({ type: 'etcd', endpoints: [endpoint], prefix });
  return {
    name: 'etcd',
    ds,
    dir,
    confKeys: { datastore_type: 'etcdv3', etcd_endpoints: endpoint, etcd_prefix: prefix, ipam_lock_file: join(dir, 'ipam.lock') },
    async close() {
      await ds.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const NODE = 'node-a';

/** A node and pools in the datastore; IPv4 /26 blocks, optional IPv6. */
export async function seed(ds: Datastore, pools: IPPool[] = [{ name: 'pool4', cidr: '10.40.0.0/24', blockSize: 26 }]): Promise<void> {
  await ds.nodes.create({ name: NODE, labels: { zone: 'a' } });
  for (const pool of pools) await ds.ipPools.create(pool);
}

/** Everything IPAM stores, revisions included: equal dumps mean nothing was written. */
export async function dump(ds: Datastore): Promise<string> {
  const [pools, blocks, affinities, handles, nodes, reservations] = await Promise.all([
    ds.ipPools.list(),
    ds.blocks.list(),
    ds.affinities.list(),
    ds.handles.list(),
    ds.nodes.list(),
    ds.ipReservations.list(),
  ]);
  const config = await ds.ipamConfig.get().catch(() => null);
  return stringifyWireJson({ pools, blocks, affinities, handles, nodes, reservations, config });
}

/** Every allocated address with its handle, sorted: the observable IPAM state. */
export async function allocations(ds: Datastore): Promise<string[]> {
  const out: string[] = [];
  for (const handle of await ds.handles.list()) {
    for (const cidr of Object.keys(handle.block)) {
      const block = await ds.blocks.get(cidr);
      block.allocations.forEach((idx, ordinal) => {
        if (idx === null) return;
        const attr = block.attributes[idx];
        if (attr?.handleId === handle.handleId && attr.releasedAt === undefined) out.push(`${handle.handleId}=${cidr.split('/')[0] ?? ''}+${ordinal}`);
      });
    }
  }
  return out.sort();
}
