import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createSqliteDatastore } from '@ipamkit/ipam-datastore/sqlite';
import { BlockLimitError, cidrContains, type Datastore, type DatastoreTx, type IPPool } from '@ipamkit/models';
import { FakeClock, startEtcd, type EtcdHandle } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpamClient, type IpamClient } from '../../src/index.js';
import { assertConsistent, bare } from './fixtures.js';

// A caching client (design/ipam-core.md, "The cached assignment context") allocates while another
// process changes a pool, the IPAM config or a reservation in the same SQLite file or etcd: its
// steady-state allocations read none of the context, and the next allocation after the change
// honours it.

const here = dirname(fileURLToPath(import.meta.url));
let dir = '';
let etcd: EtcdHandle | undefined;
let prefixes = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ipam-core-cached-context-'));
  etcd = await startEtcd();
}, 120_000);

afterAll(async () => {
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A shared store: how this process opens it and how the other process finds it. */
interface Shared {
  readonly open: () => Promise<Datastore>;
  readonly env: Record<string, string>;
}

const TARGETS: readonly { name: string; shared: () => Shared }[] = [
  {
    name: 'SQLite',
    shared: () => {
      prefixes += 1;
      const path = join(dir, `ipam-${String(prefixes)}.db`);
      return { open: () => createDatastore({ type: 'sqlite', path }), env: { CHANGE_DB: path } };
    },
  },
  {
    // The allocating client's transactions run without the write lock, validated at commit
    // (design/ipam-datastore.md, "Optimistic transactions"): a change of the other process
    // between a body's reads and its commit must be seen by validation.
    name: 'SQLite (optimistic transactions)',
    shared: () => {
      prefixes += 1;
      const path = join(dir, `ipam-${String(prefixes)}.db`);
      return { open: () => Promise.resolve(createSqliteDatastore({ path, optimisticTransactions: true })), env: { CHANGE_DB: path } };
    },
  },
  {
    name: 'etcd',
    shared: () => {
      if (etcd === undefined) throw new Error('etcd not started');
      prefixes += 1;
      const prefix = `/cached-${String(process.pid)}-${String(prefixes)}`;
      const endpoint = etcd.endpoint;
      return { open: () => createDatastore({ type: 'etcd', endpoints: [endpoint], prefix }), env: { CHANGE_ETCD: endpoint, CHANGE_PREFIX: prefix } };
    },
  },
];

/** Runs the other process's change to completion. */
function changeFromAnotherProcess(shared: Shared, steps: readonly object[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'context-change-worker.mjs')], {
      env: { ...process.env, ...shared.env, CHANGE: JSON.stringify(steps) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`the changing process exited ${String(code)}: ${err}`));
    });
  });
}

/** `inner` with every context read made inside a transaction counted (pools, reservations, config, node, affinities). */
function countingContextReads(inner: Datastore): { ds: Datastore; reads: () => number } {
  let reads = 0;
  const transact = inner.transact;
  if (transact === undefined) throw new Error('the backend has no transact');
  const counted = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => (...args: A): Promise<R> => {
    reads += 1;
    return fn(...args);
  };
  const wrap = (tx: DatastoreTx): DatastoreTx => ({
    ...tx,
    ipPools: { list: counted(() => tx.ipPools.list()) },
    ipReservations: { list: counted(() => tx.ipReservations.list()) },
    ipamConfig: { get: counted(() => tx.ipamConfig.get()) },
    nodes: { get: counted((name: string) => tx.nodes.get(name)) },
    affinities: { get: (key) => tx.affinities.get(key), list: counted((options) => tx.affinities.list(options)) },
    stamps: tx.stamps,
    write: (w) => tx.write(w),
  });
  const ds: Datastore = { ...inner, transact: (body) => transact((tx) => body(wrap(tx))) };
  return { ds, reads: () => reads };
}

interface Cached {
  readonly ds: Datastore;
  readonly ipam: IpamClient;
  readonly reads: () => number;
  /** AutoAssign of one IPv4 address on node-a; its address, and the context reads it made. */
  allocate(handleId: string): Promise<{ ip: string | undefined; reads: number }>;
}

async function cachedClient(shared: Shared, pools: readonly IPPool[]): Promise<Cached> {
  const inner = await shared.open();
  for (const pool of pools) await inner.ipPools.create(pool);
  await inner.nodes.create({ name: 'node-a', labels: { zone: 'z1' } });
  const { ds, reads } = countingContextReads(inner);
  const ipam = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
  return {
    ds: inner,
    ipam,
    reads,
    allocate: async (handleId) => {
      const before = reads();
      const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId, intendedUse: 'Workload' });
      const ip = ipv4?.ips[0];
      return { ip: ip === undefined ? undefined : bare(ip), reads: reads() - before };
    },
  };
}

/**
 * Allocations until the context is cached: the first claims a block (and forgets the owner's
 * affinities it changed), the second reads them again, the third must read nothing.
 */
async function warm(c: Cached, tag: string): Promise<string> {
  await c.allocate(`${tag}-warm-1`);
  await c.allocate(`${tag}-warm-2`);
  const steady = await c.allocate(`${tag}-warm-3`);
  expect(steady.reads).toBe(0);
  expect(steady.ip).toBeDefined();
  return steady.ip ?? '';
}

describe.each(TARGETS)('a caching client on $name honours changes made by another process', ({ shared: makeShared }) => {
  it('to a pool: a nodeSelector that stops selecting the node, then a disabled pool', async () => {
    const shared = makeShared();
    const c = await cachedClient(shared, [{ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 28 }]);
    try {
      expect(cidrContains('10.0.0.0/24', await warm(c, 'a'))).toBe(true);
      await changeFromAnotherProcess(shared, [
        { op: 'updatePool', name: 'pool-a', set: { nodeSelector: "zone == 'elsewhere'" } },
        { op: 'createPool', pool: { name: 'pool-b', cidr: '10.1.0.0/24', blockSize: 28 } },
      ]);
      const afterSelector = await c.allocate('after-selector');
      expect(afterSelector.reads).toBeGreaterThan(0);
      expect(cidrContains('10.1.0.0/24', afterSelector.ip ?? '')).toBe(true);
      await c.allocate('settle-b');
      expect((await c.allocate('steady-b')).reads).toBe(0);

      await changeFromAnotherProcess(shared, [
        { op: 'updatePool', name: 'pool-b', set: { disabled: true } },
        { op: 'createPool', pool: { name: 'pool-c', cidr: '10.2.0.0/24', blockSize: 28 } },
      ]);
      const afterDisable = await c.allocate('after-disable');
      expect(cidrContains('10.2.0.0/24', afterDisable.ip ?? '')).toBe(true);
      expect(await assertConsistent(c.ds)).toEqual({ allocated: 7, handles: 7 });
    } finally {
      await c.ds.close();
    }
  }, 180_000);

  it('to the IPAM config: maxBlocksPerHost lowered to the blocks the node has', async () => {
    const shared = makeShared();
    // /30 blocks: four addresses each.
    const c = await cachedClient(shared, [{ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 }]);
    try {
      await warm(c, 'c');
      await c.allocate('fill-4');
      await changeFromAnotherProcess(shared, [
        { op: 'setConfig', config: { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 1, ipCooldownSeconds: 0 } },
      ]);
      // The node's one block is full: a client that kept the old config (20 blocks) would claim another.
      await expect(c.allocate('over-the-cap')).rejects.toBeInstanceOf(BlockLimitError);
      expect(await assertConsistent(c.ds)).toEqual({ allocated: 4, handles: 4 });
    } finally {
      await c.ds.close();
    }
  }, 180_000);

  it('to reservations: the rest of the node’s block reserved', async () => {
    const shared = makeShared();
    const c = await cachedClient(shared, [{ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 26 }]);
    try {
      const ip = await warm(c, 'r');
      const block = `${ip.replace(/\.\d+$/, '.')}${String(Number(ip.split('.')[3]) & ~63)}/26`;
      await changeFromAnotherProcess(shared, [{ op: 'createReservation', reservation: { name: 'res-block', reservedCIDRs: [block] } }]);
      const after = await c.allocate('after-reservation');
      expect(after.reads).toBeGreaterThan(0);
      expect(after.ip).toBeDefined();
      expect(cidrContains(block, after.ip ?? '')).toBe(false);
      expect(await assertConsistent(c.ds)).toEqual({ allocated: 4, handles: 4 });
    } finally {
      await c.ds.close();
    }
  }, 180_000);
});

describe('a caching client on etcd', () => {
  it('retries, and honours the change, when a pool changes between its cached stamp and its commit', async () => {
    const shared = TARGETS.find((t) => t.name === 'etcd')?.shared();
    if (shared === undefined) throw new Error('no etcd target');
    const c = await cachedClient(shared, [{ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 28 }]);
    // Another client of the same etcd (its own read cache), writing while the body runs.
    const other = await shared.open();
    try {
      await warm(c, 'e');
      const transact = c.ds.transact;
      if (transact === undefined) throw new Error('no transact');
      let armed = true;
      let bodies = 0;
      const racing: Datastore = {
        ...c.ds,
        transact: (body) =>
          transact((tx) => {
            bodies += 1;
            const stamps = {
              get: async (target: Parameters<DatastoreTx['stamps']['get']>[0]) => {
                const stamp = await tx.stamps.get(target);
                if (armed && target.kind === 'ipPools') {
                  armed = false;
                  await other.ipPools.update({ ...(await other.ipPools.get('pool-a')), disabled: true });
                  await other.ipPools.create({ name: 'pool-b', cidr: '10.1.0.0/24', blockSize: 28 });
                }
                return stamp;
              },
            };
            return body({ ...tx, stamps, write: (w) => tx.write(w) });
          }),
      };
      const ipam = createIpamClient({ datastore: racing, clock: new FakeClock(), windowsHost: false });
      // A fresh client over the same datastore would not have the cache: warm this one first.
      await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'r-warm-1', intendedUse: 'Workload' });
      await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'r-warm-2', intendedUse: 'Workload' });
      armed = true;
      bodies = 0;
      const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'raced', intendedUse: 'Workload' });
      expect(cidrContains('10.1.0.0/24', bare(ipv4?.ips[0] ?? ''))).toBe(true);
      // The first body committed nothing: its cached pools were stale at commit.
      expect(bodies).toBeGreaterThan(1);
      expect(await assertConsistent(c.ds)).toEqual({ allocated: 6, handles: 6 });
    } finally {
      await other.close();
      await c.ds.close();
    }
  }, 180_000);
});
