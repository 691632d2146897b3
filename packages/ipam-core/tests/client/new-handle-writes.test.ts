import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { FakeClock } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { countingDatastore } from '../../src/client/counting-datastore.js';
import { createIpamClient } from '../../src/index.js';
import { assertConsistent } from './fixtures.js';

// Without transactions (Kubernetes), AutoAssign creates a new call's handle with its first write
// instead of reading it first (design/ipam-core.md, "AutoAssign flow"): what each handle operation
// costs, and that a handle which exists after all still ends up counting every address.

interface HandleCalls {
  get: number;
  create: number;
  update: number;
}

/** The memory backend without `transact`, counting the handle store's calls. */
async function kubernetesLike(): Promise<{ ds: Datastore; calls: HandleCalls }> {
  const inner = await createDatastore({ type: 'memory' });
  await inner.ipPools.create({ name: 'v4', cidr: '10.0.0.0/24', blockSize: 26 });
  await inner.ipPools.create({ name: 'v6', cidr: 'fd00::/120', blockSize: 122 });
  await inner.nodes.create({ name: 'node-a' });
  const ds = countingDatastore(inner, { asKind: 'kubernetes', withoutTransact: true }).datastore;
  const calls: HandleCalls = { get: 0, create: 0, update: 0 };
  const handles = ds.handles;
  const counted: Datastore = {
    ...ds,
    handles: {
      ...handles,
      get: (id) => ((calls.get += 1), handles.get(id)),
      create: (h) => ((calls.create += 1), handles.create(h)),
      update: (h) => ((calls.update += 1), handles.update(h)),
    },
  };
  return { ds: counted, calls };
}

const client = (ds: Datastore) => createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });

/** A first call claims the node's blocks (the slow path, which reads what it writes); then the counts start from zero. */
async function warmedUp(): Promise<{ ds: Datastore; calls: HandleCalls }> {
  const world = await kubernetesLike();
  await client(world.ds).autoAssign({ num4: 1, num6: 1, hostname: 'node-a', handleId: 'warm-up', intendedUse: 'Workload' });
  Object.assign(world.calls, { get: 0, create: 0, update: 0 });
  return world;
}

const bare = (cidr: string | undefined): string => (cidr ?? '').split('/')[0] ?? '';

describe('AutoAssign without transactions and the handle', () => {
  it('creates a new handle without reading it', async () => {
    const { ds, calls } = await warmedUp();
    await client(ds).autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(calls).toEqual({ get: 0, create: 1, update: 0 });
    expect((await ds.handles.get('pod-1')).block).toEqual({ '10.0.0.0/26': 1 });
  });

  it('reads the handle for the second family of a dual-stack call, which the first one created', async () => {
    const { ds, calls } = await warmedUp();
    const { ipv4, ipv6 } = await client(ds).autoAssign({ num4: 1, num6: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect([ipv4?.ips.length, ipv6?.ips.length]).toEqual([1, 1]);
    // v4 creates without reading; v6 reads it in its context wave and updates it: no create refused.
    expect(calls).toEqual({ get: 1, create: 1, update: 1 });
    expect((await ds.handles.get('pod-1')).block).toEqual({ '10.0.0.0/26': 1, 'fd00::/122': 1 });
  });

  it('counts every address of a handle that exists after all (a repeated ADD): the refused create reads it', async () => {
    const { ds, calls } = await warmedUp();
    const ipam = client(ds);
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(calls).toEqual({ get: 1, create: 2, update: 1 });
    expect((await ds.handles.get('pod-1')).block).toEqual({ '10.0.0.0/26': 2 });
    expect(await assertConsistent(ds)).toEqual({ allocated: 4, handles: 2 });
  });

  it('stops at the handle cap of a handle that exists after all', async () => {
    const { ds } = await warmedUp();
    const ipam = client(ds);
    const first = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'vm', intendedUse: 'Workload', maxAllocToHandlePerIPVersion: 1 });
    const again = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'vm', intendedUse: 'Workload', maxAllocToHandlePerIPVersion: 1 });
    // The second call gets the handle's address back instead of a second one.
    expect(bare(again.ipv4?.ips[0])).toBe(bare(first.ipv4?.ips[0]));
    expect(await assertConsistent(ds)).toEqual({ allocated: 3, handles: 2 });
  });
});
