import { createDatastore } from '@ipamkit/ipam-datastore';
import { FakeClock } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { countingDatastore, type CountingDatastore } from '../../src/client/counting-datastore.js';
import { READ_AHEAD_MAX_AGE_MS } from '../../src/client/read-assign-context.js';
import { createIpamClient } from '../../src/index.js';
import { assertConsistent } from './fixtures.js';

// `readAhead` starts an AutoAssign's first wave before the call, so that a caller with other reads
// to wait for (the CNI plugin's pod) sends them together (design/ipam-core.md, "Read-ahead").

/** The memory backend seeded with a pool and a node, counted; `withoutTransact` as on Kubernetes. */
async function world(withoutTransact: boolean): Promise<CountingDatastore> {
  const inner = await createDatastore({ type: 'memory' });
  await inner.ipPools.create({ name: 'v4', cidr: '10.0.0.0/24', blockSize: 26 });
  await inner.ipPools.create({ name: 'v6', cidr: 'fd00::/120', blockSize: 122 });
  await inner.nodes.create({ name: 'node-a' });
  return countingDatastore(inner, { asKind: withoutTransact ? 'kubernetes' : 'memory', withoutTransact });
}

/** A client whose hints name the node's block, as a CNI call's do after the first pod. */
async function warmClient(counting: CountingDatastore, clock: FakeClock): Promise<ReturnType<typeof createIpamClient>> {
  const hints = new Map<string, string[]>();
  await createIpamClient({ datastore: counting.datastore, clock, windowsHost: false, affineHints: hints }).autoAssign({
    num4: 1,
    num6: 1,
    hostname: 'node-a',
    handleId: 'warm-up',
    intendedUse: 'Workload',
  });
  counting.reset();
  return createIpamClient({ datastore: counting.datastore, clock, windowsHost: false, affineHints: hints });
}

describe('readAhead without transactions', () => {
  it('sends the first wave at once; the AutoAssign then only writes', async () => {
    const counting = await world(true);
    const ipam = await warmClient(counting, new FakeClock());
    ipam.readAhead({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    // config, reservations, node, pools, the host's affinities and the hinted block.
    expect(counting.counts()).toMatchObject({ waves: 1, calls: 6 });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.1/26']);
    // The handle's create and the block's update: nothing is read again.
    expect(counting.counts()).toMatchObject({ waves: 3, calls: 8 });
    expect(await assertConsistent(counting.datastore)).toEqual({ allocated: 3, handles: 2 });
  });

  it('is taken once: the next AutoAssign reads for itself', async () => {
    const counting = await world(true);
    const ipam = await warmClient(counting, new FakeClock());
    ipam.readAhead({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    counting.reset();
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-2', intendedUse: 'Workload' });
    expect(counting.counts()).toMatchObject({ waves: 3, calls: 8 });
  });

  it('reads each family asked for, and only those', async () => {
    const counting = await world(true);
    const ipam = await warmClient(counting, new FakeClock());
    ipam.readAhead({ num4: 1, num6: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(counting.counts().calls).toBe(12);
    counting.reset();
    const { ipv4, ipv6 } = await ipam.autoAssign({ num4: 1, num6: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect([ipv4?.ips, ipv6?.ips]).toEqual([['10.0.0.1/26'], ['fd00::1/122']]);
    // v4: create the handle, update the block; v6: read the handle v4 wrote, update the block, update the handle.
    expect(counting.counts().calls).toBe(5);
  });

  it('is not used when it is older than READ_AHEAD_MAX_AGE_MS, nor by another host', async () => {
    const counting = await world(true);
    const clock = new FakeClock();
    const ipam = await warmClient(counting, clock);
    ipam.readAhead({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    clock.advanceMs(READ_AHEAD_MAX_AGE_MS + 1);
    counting.reset();
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(counting.counts()).toMatchObject({ waves: 3, calls: 8 });

    ipam.readAhead({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    counting.reset();
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-b', handleId: 'pod-2', intendedUse: 'Workload' })).rejects.toThrow(/node-b/);
  });

  it('sees what was written before it, not what it read when a write came between', async () => {
    const counting = await world(true);
    const ipam = await warmClient(counting, new FakeClock());
    ipam.readAhead({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    // Another client allocates from the same block after the read-ahead was taken: the block read
    // ahead is stale, the update's compare-and-swap refuses it, and the address stays unique.
    await createIpamClient({ datastore: counting.datastore, clock: new FakeClock(), windowsHost: false }).autoAssign({
      num4: 1,
      hostname: 'node-a',
      handleId: 'other',
      intendedUse: 'Workload',
    });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.2/26']);
    expect(await assertConsistent(counting.datastore)).toEqual({ allocated: 4, handles: 3 });
  });

  it('leaves no unhandled rejection when nobody takes a failed read-ahead', async () => {
    const counting = await world(true);
    const ipam = await warmClient(counting, new FakeClock());
    // No such node: the node read fails; nobody asks for it.
    ipam.readAhead({ num4: 1, hostname: 'node-gone', intendedUse: 'Workload' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-gone', handleId: 'pod-1', intendedUse: 'Workload' })).rejects.toThrow(/node-gone/);
  });
});

describe('readAhead with transactions', () => {
  it('reads nothing: the transaction reads its context itself', async () => {
    const counting = await world(false);
    const ipam = await warmClient(counting, new FakeClock());
    ipam.readAhead({ num4: 1, num6: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(counting.counts().calls).toBe(0);
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod-1', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.1/26']);
  });
});
