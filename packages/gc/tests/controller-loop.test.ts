import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryClusterView } from '../src/cluster-view/memory-cluster-view.js';
import { GcController } from '../src/controller/gc-controller.js';
import { GcConfigError } from '../src/errors.js';
import { affinityHosts, allocatedIPs } from './harness.js';

const running: { gc: GcController; ds: Datastore }[] = [];

afterEach(async () => {
  for (const { gc, ds } of running.splice(0)) {
    try {
      await gc.assertConsistentState();
    } finally {
      await gc.stop();
      await ds.close();
    }
  }
});

async function startLoop(leakGracePeriodMs: number): Promise<{ gc: GcController; ds: Datastore; view: MemoryClusterView }> {
  const ds = await createDatastore({ type: 'memory' });
  await ds.ipPools.create({ name: 'p', cidr: '10.0.0.0/24', blockSize: 26 });
  const view = new MemoryClusterView();
  view.upsertNode('node-a');
  view.upsertNode('node-b');
  const gc = new GcController({ datastore: ds, view, leakGracePeriodMs, batchWaitMs: 20 });
  running.push({ gc, ds });
  await gc.start();
  return { gc, ds, view };
}

describe('the background loop', () => {
  it('watches the datastore and releases a leak after the grace period with no manual passes', async () => {
    const { gc, ds } = await startLoop(300);
    const ipam = createIpamClient({ datastore: ds, windowsHost: false });
    await ipam.assignIP({ ip: '10.0.0.5', hostname: 'node-a', handleId: 'k8s-pod-network.c1', attrs: { node: 'node-a', namespace: 'default', pod: 'gone' }, intendedUse: 'Workload' });
    await vi.waitFor(() => expect(gc.state.allocationsByNode.get('node-a')?.size).toBe(1), { timeout: 10_000, interval: 20 });
    await vi.waitFor(async () => expect(await allocatedIPs(ds)).toEqual([]), { timeout: 20_000, interval: 50 });
    expect(await affinityHosts(ds)).toEqual(['node-a:10.0.0.0/26']);
  }, 30_000);

  it('cleans up a deleted node from its delete notification', async () => {
    const { gc, ds, view } = await startLoop(60_000);
    const ipam = createIpamClient({ datastore: ds, windowsHost: false });
    await ipam.assignIP({ ip: '10.0.0.70', hostname: 'node-b', handleId: 'k8s-pod-network.c2', attrs: { node: 'node-b', namespace: 'default', pod: 'web' }, intendedUse: 'Workload' });
    await vi.waitFor(() => expect(gc.state.allocationsByNode.get('node-b')?.size).toBe(1), { timeout: 10_000, interval: 20 });
    view.deleteNode('node-b');
    await vi.waitFor(async () => expect(await affinityHosts(ds)).toEqual([]), { timeout: 20_000, interval: 50 });
    expect(await allocatedIPs(ds)).toEqual([]);
    await vi.waitFor(() => expect(gc.state.allBlocks.size).toBe(0), { timeout: 10_000, interval: 20 });
  }, 30_000);

  it('rejects a negative grace period', async () => {
    const ds = await createDatastore({ type: 'memory' });
    expect(() => new GcController({ datastore: ds, view: new MemoryClusterView(), leakGracePeriodMs: -1 })).toThrow(GcConfigError);
    await ds.close();
  });
});
