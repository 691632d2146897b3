import { createDatastore } from '@ipamkit/ipam-datastore';
import { type Datastore, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { createIpamClient } from '../../src/index.js';
import { countingDatastore, type CountingDatastoreOptions } from '../../src/client/counting-datastore.js';
import { FakeClock } from '@ipamkit/test-utils';
import { assertConsistent, BACKENDS, etcdCountingRequests, useBackends } from './fixtures.js';

useBackends();

async function seeded(ds: Datastore): Promise<void> {
  await ds.ipPools.create({ name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 });
  await ds.nodes.create({ name: 'node-a' });
}

/** Round trips of one AutoAssign of one IP into an existing affine block (the steady state). */
async function steadyStateCount(inner: Datastore, options: CountingDatastoreOptions = {}) {
  await seeded(inner);
  const counting = countingDatastore(inner, options);
  const ipam = createIpamClient({ datastore: counting.datastore, clock: new FakeClock(), windowsHost: false });
  // The first call claims the block (the cold path); the second is the one measured.
  await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'warm-up', intendedUse: 'Workload' });
  counting.reset();
  const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'measured', intendedUse: 'Workload' });
  // The second address of the block claimed by the warm-up call.
  expect(ipv4?.ips[0]).toMatch(/^10\.0\.0\.(1|65|129|193)\/26$/);
  const counts = counting.counts();
  expect(await assertConsistent(inner)).toEqual({ allocated: 2, handles: 2 });
  await inner.close();
  return counts;
}

describe('countingDatastore', () => {
  it('counts calls started together as one wave and sequential calls as separate waves', async () => {
    const counting = countingDatastore(await createDatastore({ type: 'memory' }));
    const ds = counting.datastore;
    await Promise.all([ds.ipPools.list(), ds.nodes.list(), ds.blocks.list()]);
    await ds.handles.list();
    expect(counting.counts()).toEqual({ waves: 2, calls: 4, transactions: 0, requests: 4 });
  });

  it('counts a transaction as one wave on SQLite and memory', async () => {
    const counting = countingDatastore(await createDatastore({ type: 'memory' }));
    const transact = counting.datastore.transact;
    expect(transact).toBeDefined();
    await transact?.(async (tx) => {
      await tx.ipPools.list();
      await tx.blocks.list();
    });
    expect(counting.counts()).toEqual({ waves: 1, calls: 3, transactions: 1, requests: 1 });
  });

  it('counts an etcd transaction as its read waves plus the commit', async () => {
    const counting = countingDatastore(await createDatastore({ type: 'memory' }), { asKind: 'etcd' });
    await counting.datastore.transact?.(async (tx) => {
      await Promise.all([tx.ipPools.list(), tx.blocks.list()]);
      await tx.handles.get('x').catch(() => undefined);
    });
    expect(counting.counts()).toEqual({ waves: 3, calls: 4, transactions: 1, requests: 1 });
  });

  it('hides transact and reports the kind asked for', async () => {
    const counting = countingDatastore(await createDatastore({ type: 'memory' }), { asKind: 'kubernetes', withoutTransact: true });
    expect(counting.datastore.kind).toBe('kubernetes');
    expect(counting.datastore.transact).toBeUndefined();
  });
});

describe('round trips of a steady-state AutoAssign', () => {
  it('is one transaction on SQLite', async () => {
    const counts = await steadyStateCount(await BACKENDS.find((b) => b.name === 'sqlite')!.create());
    expect(counts.transactions).toBe(1);
    expect(counts.waves).toBe(1);
  });

  it('is at most two round trips on etcd (memory backend counted as etcd)', async () => {
    const counts = await steadyStateCount(await createDatastore({ type: 'memory' }), { asKind: 'etcd' });
    expect(counts.transactions).toBe(1);
    expect(counts.waves).toBe(2);
  });

  it('is at most two round trips on a real etcd', async () => {
    const counts = await steadyStateCount(await BACKENDS.find((b) => b.name === 'etcd')!.create());
    expect(counts.transactions).toBe(1);
    expect(counts.waves).toBe(2);
  });

  it('sends one request to a real etcd from a warm client, and two after its host claimed a block', async () => {
    let requests = 0;
    const ds = await etcdCountingRequests(() => (requests += 1));
    await seeded(ds);
    const ipam = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
    const measure = async (handleId: string): Promise<number> => {
      const before = requests;
      const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId, intendedUse: 'Workload' });
      expect(ipv4?.ips).toHaveLength(1);
      return requests - before;
    };
    // The first call claims a block (the cold path); its affinity write drops the cached range.
    expect(await measure('claims')).toBeGreaterThan(2);
    expect(await measure('after-claim')).toBe(2);
    expect(await measure('steady-1')).toBe(1);
    expect(await measure('steady-2')).toBe(1);
    expect(await assertConsistent(ds)).toEqual({ allocated: 4, handles: 4 });
  });

  it('releases a handle in one transaction on SQLite, and in one request to a warm etcd', async () => {
    const sqlite = countingDatastore(await BACKENDS.find((b) => b.name === 'sqlite')!.create());
    await seeded(sqlite.datastore);
    const local = createIpamClient({ datastore: sqlite.datastore, clock: new FakeClock(), windowsHost: false });
    await local.autoAssign({ num4: 1, num6: 0, hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    sqlite.reset();
    await local.releaseByHandle('h');
    expect(sqlite.counts()).toMatchObject({ transactions: 1, waves: 1 });
    expect(await assertConsistent(sqlite.datastore)).toEqual({ allocated: 0, handles: 0 });

    let requests = 0;
    const ds = await etcdCountingRequests(() => (requests += 1));
    await seeded(ds);
    const ipam = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
    for (const id of ['a', 'b', 'c']) await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: id, intendedUse: 'Workload' });
    const before = requests;
    await ipam.releaseByHandle('b');
    expect(requests - before).toBe(1);
    expect(await assertConsistent(ds)).toEqual({ allocated: 2, handles: 2 });
    await expect(ipam.releaseByHandle('b')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('is at most four round trips without transactions (Kubernetes)', async () => {
    const counts = await steadyStateCount(await createDatastore({ type: 'memory' }), { asKind: 'kubernetes', withoutTransact: true });
    expect(counts.transactions).toBe(0);
    expect(counts.waves).toBeLessThanOrEqual(4);
    expect(counts.waves).toBe(3);
  });

  it.each([
    ['etcd', { asKind: 'etcd' }, 3],
    ['kubernetes', { asKind: 'kubernetes', withoutTransact: true }, 4],
  ] as const)('costs one more wave on %s for a client that has not seen the host yet (cold read hints)', async (_kind, options, waves) => {
    const inner = await createDatastore({ type: 'memory' });
    await seeded(inner);
    const warm = createIpamClient({ datastore: inner, clock: new FakeClock(), windowsHost: false });
    await warm.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    const counting = countingDatastore(inner, options);
    const cold = createIpamClient({ datastore: counting.datastore, clock: new FakeClock(), windowsHost: false });
    await cold.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'c', intendedUse: 'Workload' });
    expect(counting.counts().waves).toBe(waves);
    await inner.close();
  });
});
