import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { type Datastore, type IPPool, NotFoundError } from '@ipamkit/models';
import { FakeClock } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { countingDatastore } from '../../src/client/counting-datastore.js';
import { createIpamClient } from '../../src/index.js';
import { assertConsistent, BACKENDS, etcdClientsOfOnePrefix, useBackends } from './fixtures.js';

useBackends();

// ReleaseByHandle as a CNI DEL meets it: a client that has seen nothing yet (design/ipam-core.md,
// "Releasing"): the handle is read, never guessed absent; the node only where the pool selects by label.

const POOL: IPPool = { name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 };

async function seeded(ds: Datastore, pool: Partial<IPPool>): Promise<void> {
  await ds.ipPools.create({ ...POOL, ...pool });
  await ds.nodes.create({ name: 'node-a', labels: { zone: 'a' } });
  const adder = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
  for (const handleId of ['pod-1', 'pod-2']) await adder.autoAssign({ num4: 1, hostname: 'node-a', handleId, intendedUse: 'Workload' });
}

const client = (datastore: Datastore) => createIpamClient({ datastore, clock: new FakeClock(), windowsHost: false });

describe('ReleaseByHandle from a cold client on a real etcd', () => {
  it.each([
    // The handle with the config and pools; the handle's block; the commit.
    ['selects every node', {}, 3],
    ['selects nodes by label (the node is read too)', { nodeSelector: "zone == 'a'" }, 4],
  ])('takes the fewest requests when the pool %s', async (_, pool, expected) => {
    let requests = 0;
    const open = etcdClientsOfOnePrefix(() => (requests += 1));
    const seeding = await open();
    await seeded(seeding, pool);
    const cold = client(await open());
    requests = 0;
    await cold.releaseByHandle('pod-1');
    expect(requests).toBe(expected);
    expect(await assertConsistent(seeding)).toEqual({ allocated: 1, handles: 1 });
  });

  it('reads the blocks the host\'s hints name with the handle when told the host: the handle\'s block, then the commit', async () => {
    let requests = 0;
    const open = etcdClientsOfOnePrefix(() => (requests += 1));
    const seeding = await open();
    await seeded(seeding, {});
    const block = (await seeding.blocks.list())[0]?.cidr ?? '';
    const cold = async () => createIpamClient({ datastore: await open(), clock: new FakeClock(), windowsHost: false, affineHints: new Map([['host:node-a:v4', [block]]]) });
    requests = 0;
    await (await cold()).releaseByHandle('pod-1', { host: 'node-a' });
    expect(requests).toBe(2);
    // Without the host the hints are not used: three requests, as above.
    requests = 0;
    await (await cold()).releaseByHandle('pod-2');
    expect(requests).toBe(3);
    expect(await assertConsistent(seeding)).toEqual({ allocated: 0, handles: 0 });
  });

  it('finds an unknown handle unknown in one request', async () => {
    let requests = 0;
    const open = etcdClientsOfOnePrefix(() => (requests += 1));
    await seeded(await open(), {});
    const cold = client(await open());
    requests = 0;
    await expect(cold.releaseByHandle('never-assigned')).rejects.toBeInstanceOf(NotFoundError);
    expect(requests).toBe(1);
  });
});

describe('ReleaseByHandle of a handle that seldom exists, on SQLite', () => {
  async function sqliteWithTransactionsCounted(): Promise<{ ds: Datastore; transactions: () => number; close: () => Promise<void> }> {
    const dir = mkdtempSync(join(tmpdir(), 'release-seldom-'));
    const ds = await createDatastore({ type: 'sqlite', path: join(dir, 'ipam.db') });
    const transact = ds.transact?.bind(ds);
    if (transact === undefined) throw new Error('the SQLite datastore offers transactions');
    let transactions = 0;
    const counted: Datastore = Object.assign(Object.create(ds) as Datastore, {
      transact: (...args: Parameters<typeof transact>) => {
        transactions += 1;
        return transact(...args);
      },
    });
    return {
      ds: counted,
      transactions: () => transactions,
      close: async () => {
        await ds.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('finds a missing handle missing without opening a transaction (no write lock), and still releases one that exists', async () => {
    const { ds, transactions, close } = await sqliteWithTransactionsCounted();
    try {
      await seeded(ds, {});
      const ipam = client(ds);
      const before = transactions();
      await expect(ipam.releaseByHandle('never-assigned', { seldomExists: true })).rejects.toBeInstanceOf(NotFoundError);
      expect(transactions()).toBe(before);
      // Without the option, the lookup is the transaction's.
      await expect(ipam.releaseByHandle('never-assigned')).rejects.toBeInstanceOf(NotFoundError);
      expect(transactions()).toBe(before + 1);
      await ipam.releaseByHandle('pod-1', { seldomExists: true });
      expect(transactions()).toBe(before + 2);
      expect(await assertConsistent(ds)).toEqual({ allocated: 1, handles: 1 });
    } finally {
      await close();
    }
  });
});

describe('ReleaseByHandle without transactions (Kubernetes)', () => {
  const kubernetesLike = async () => countingDatastore(await createDatastore({ type: 'memory' }), { asKind: 'kubernetes', withoutTransact: true });

  it('reads the handle once, and the config and pools beside the block', async () => {
    const counting = await kubernetesLike();
    await seeded(counting.datastore, {});
    const ipam = client(counting.datastore);
    counting.reset();
    await ipam.releaseByHandle('pod-1');
    // The handle; the block with the config and the pools; the block write; the handle's delete.
    expect(counting.counts()).toMatchObject({ waves: 4, calls: 6 });
    expect(await assertConsistent(counting.datastore)).toEqual({ allocated: 1, handles: 1 });
  });

  it('reads the config, the pools and the host\'s hinted block beside the handle when told the host', async () => {
    const counting = await kubernetesLike();
    await seeded(counting.datastore, {});
    const block = (await counting.datastore.blocks.list())[0]?.cidr ?? '';
    const ipam = createIpamClient({ datastore: counting.datastore, clock: new FakeClock(), windowsHost: false, affineHints: new Map([['host:node-a:v4', [block]]]) });
    counting.reset();
    await ipam.releaseByHandle('pod-1', { host: 'node-a' });
    // The handle with the config, the pools and the block; the block write; the handle's delete.
    expect(counting.counts()).toMatchObject({ waves: 3, calls: 6 });
    expect(await assertConsistent(counting.datastore)).toEqual({ allocated: 1, handles: 1 });
  });

  it('reads nothing else for an unknown handle', async () => {
    const counting = await kubernetesLike();
    await seeded(counting.datastore, {});
    counting.reset();
    await expect(client(counting.datastore).releaseByHandle('never-assigned')).rejects.toBeInstanceOf(NotFoundError);
    expect(counting.counts()).toMatchObject({ waves: 1, calls: 1 });
  });

  it('reads a handle that seldom exists once, as any other: its read is already the first', async () => {
    const counting = await kubernetesLike();
    await seeded(counting.datastore, {});
    counting.reset();
    await expect(client(counting.datastore).releaseByHandle('never-assigned', { seldomExists: true })).rejects.toBeInstanceOf(NotFoundError);
    expect(counting.counts()).toMatchObject({ waves: 1, calls: 1 });
    counting.reset();
    await client(counting.datastore).releaseByHandle('pod-1', { seldomExists: true });
    expect(counting.counts()).toMatchObject({ waves: 4, calls: 6 });
  });

  it('reads the node when the pool selects by label', async () => {
    const counting = await kubernetesLike();
    await seeded(counting.datastore, { nodeSelector: "zone == 'a'" });
    counting.reset();
    await client(counting.datastore).releaseByHandle('pod-1');
    expect(counting.counts()).toMatchObject({ waves: 5, calls: 7 });
  });
});

describe.each(BACKENDS.map((b) => [b.name, b] as const))('ReleaseByHandle and the pool selection on %s', (_, backend) => {
  it('gives up the emptied block of a pool that no longer selects the node, and keeps one that selects every node', async () => {
    const ds = await backend.create();
    await ds.ipPools.create({ name: 'labelled', cidr: '10.8.0.0/26', blockSize: 26, nodeSelector: "zone == 'a'" });
    await ds.ipPools.create({ name: 'everyone', cidr: '10.9.0.0/26', blockSize: 26 });
    await ds.nodes.create({ name: 'node-a', labels: { zone: 'a' } });
    const ipam = client(ds);
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'labelled', intendedUse: 'Workload', ipv4Pools: ['10.8.0.0/26'] });
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'everyone', intendedUse: 'Workload', ipv4Pools: ['10.9.0.0/26'] });
    const node = await ds.nodes.get('node-a');
    await ds.nodes.update({ ...node, labels: { zone: 'b' } });
    await client(ds).releaseByHandle('labelled');
    await client(ds).releaseByHandle('everyone');
    expect((await ds.affinities.list({ host: 'node-a' })).map((a) => a.cidr)).toEqual(['10.9.0.0/26']);
    await ds.close();
  });
});
