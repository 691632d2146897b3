import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Datastore, IPAMConfig, IPPool, Node } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { FakeClock, startEtcd, type EtcdHandle } from '@ipamkit/test-utils';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createIpamClient, type IpamClient } from '../../src/index.js';
import { countingDatastore } from '../../src/client/counting-datastore.js';

/** A datastore under test and how to dispose of it. */
export interface Backend {
  readonly name: 'memory' | 'sqlite' | 'etcd' | 'no-transact';
  create(): Promise<Datastore>;
}

let etcd: EtcdHandle | undefined;
let etcdPrefix = 0;
const tempDirs: string[] = [];
const open: Datastore[] = [];

/** The backends every client test runs against; adding one is one entry here. */
export const BACKENDS: readonly Backend[] = [
  { name: 'memory', create: () => createDatastore({ type: 'memory' }) },
  {
    name: 'sqlite',
    create: () => {
      const dir = mkdtempSync(join(tmpdir(), 'ipam-core-client-'));
      tempDirs.push(dir);
      return createDatastore({ type: 'sqlite', path: join(dir, 'ipam.db') });
    },
  },
  {
    // The Kubernetes backend has no transactions: memory with `transact` hidden exercises the
    // client's ordered-writes-with-compensation paths.
    name: 'no-transact',
    create: async () => countingDatastore(await createDatastore({ type: 'memory' }), { asKind: 'kubernetes', withoutTransact: true }).datastore,
  },
  {
    name: 'etcd',
    create: () => {
      if (etcd === undefined) throw new Error('etcd not started');
      etcdPrefix += 1;
      return createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix: `/t${process.pid}-${etcdPrefix}` });
    },
  },
];

/** An etcd datastore of the file's etcd that reports every request it sends to `onRequest`. */
export async function etcdCountingRequests(onRequest: () => void): Promise<Datastore> {
  if (etcd === undefined) throw new Error('etcd not started');
  etcdPrefix += 1;
  const { createEtcdDatastore } = await import('@ipamkit/ipam-datastore/etcd');
  const ds = createEtcdDatastore({ endpoints: [etcd.endpoint], prefix: `/t${process.pid}-${etcdPrefix}`, onRequest });
  open.push(ds);
  return ds;
}

/**
 * Opens datastores on one fresh etcd prefix, each a client of its own (its own transaction read
 * cache, as a new process has), every request counted by `onRequest`.
 */
export function etcdClientsOfOnePrefix(onRequest: () => void): () => Promise<Datastore> {
  if (etcd === undefined) throw new Error('etcd not started');
  etcdPrefix += 1;
  const endpoint = etcd.endpoint;
  const prefix = `/t${process.pid}-${etcdPrefix}`;
  return async () => {
    const { createEtcdDatastore } = await import('@ipamkit/ipam-datastore/etcd');
    const ds = createEtcdDatastore({ endpoints: [endpoint], prefix, onRequest });
    open.push(ds);
    return ds;
  };
}

/** Call at the top of a test file: starts one etcd for the file and closes every datastore after each test. */
export function useBackends(): void {
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((ds) => ds.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await etcd?.stop();
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, 30_000);
}

export interface World {
  readonly ds: Datastore;
  readonly clock: FakeClock;
  readonly ipam: IpamClient;
}

/** A fresh datastore with the given pools, nodes and config, and a client on it. */
export async function world(
  backend: Backend,
  seed: { pools?: IPPool[]; nodes?: Node[]; config?: IPAMConfig } = {},
): Promise<World> {
  const ds = await backend.create();
  open.push(ds);
  await Promise.all((seed.pools ?? [{ name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 }]).map((p) => ds.ipPools.create(p)));
  await Promise.all((seed.nodes ?? [{ name: 'node-a' }, { name: 'node-b' }]).map((n) => ds.nodes.create(n)));
  if (seed.config !== undefined) await ds.ipamConfig.create(seed.config);
  const clock = new FakeClock();
  return { ds, clock, ipam: createIpamClient({ datastore: ds, clock, windowsHost: false }) };
}

export const strictConfig: IPAMConfig = { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };

/** The bare address of a block-masked result (`10.0.0.5/26` → `10.0.0.5`). */
export function bare(ipNet: string): string {
  return ipNet.split('/')[0] ?? ipNet;
}

/**
 * Cross-checks the store: no address is allocated in two blocks, blocks do not overlap, and every
 * handle's per-block counts equal the allocations carrying that handle. Returns the totals.
 */
export async function assertConsistent(ds: Datastore): Promise<{ allocated: number; handles: number }> {
  const [blocks, handles] = await Promise.all([ds.blocks.list(), ds.handles.list()]);
  const perHandle = new Map<string, Map<string, number>>();
  const cidrs = new Set<string>();
  let allocated = 0;
  for (const block of blocks) {
    if (cidrs.has(block.cidr)) throw new Error(`block ${block.cidr} listed twice`);
    cidrs.add(block.cidr);
    block.allocations.forEach((index) => {
      if (index === null) return;
      const attribute = block.attributes[index];
      if (attribute === undefined) throw new Error(`block ${block.cidr} points at a missing attribute`);
      if (attribute.releasedAt !== undefined) return;
      allocated += 1;
      const id = attribute.handleId;
      if (id === undefined || id === 'windows-reserved-ipam-handle') return;
      const counts = perHandle.get(id) ?? new Map<string, number>();
      counts.set(block.cidr, (counts.get(block.cidr) ?? 0) + 1);
      perHandle.set(id, counts);
    });
    const free = new Set(block.unallocated);
    if (free.size !== block.unallocated.length) throw new Error(`block ${block.cidr} has a duplicate free ordinal`);
    block.allocations.forEach((index, ordinal) => {
      if (index !== null && free.has(ordinal)) throw new Error(`block ${block.cidr} ordinal ${ordinal} is both allocated and free`);
    });
  }
  const stored = new Map(handles.map((h) => [h.handleId, h.block]));
  for (const [id, counts] of perHandle) {
    const want = Object.fromEntries([...counts].sort());
    const got = Object.fromEntries(Object.entries(stored.get(id) ?? {}).sort());
    if (JSON.stringify(want) !== JSON.stringify(got)) throw new Error(`handle ${id}: blocks say ${JSON.stringify(want)}, handle says ${JSON.stringify(got)}`);
  }
  for (const [id, block] of stored) {
    if (!perHandle.has(id) && Object.keys(block).length > 0) throw new Error(`handle ${id} counts ${JSON.stringify(block)} but owns no address`);
  }
  return { allocated, handles: stored.size };
}
