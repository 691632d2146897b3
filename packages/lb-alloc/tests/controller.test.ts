import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient } from '@ipamkit/ipam-core';
import { describe, expect, it, vi } from 'vitest';
import { LbConfigError } from '../src/errors.js';
import { LbController } from '../src/controller/lb-controller.js';
import { MemoryLbClusterView } from '../src/cluster-view/memory-lb-cluster-view.js';
import { LB_POOL_V4, lbWorld, startController, storedAllocations, useLbWorlds } from './harness.js';

useLbWorlds();
const memory = () => createDatastore({ type: 'memory' });

describe('LbController', () => {
  it('retries a failed status write at the next full sync', async () => {
    const w = await lbWorld(await memory());
    w.view.failStatusWrites = new Error('apiserver down');
    w.view.upsertService({ name: 'web' });
    await w.settle();
    expect(w.view.getService('default', 'web')?.ingressIPs).toEqual([]);
    const [alloc] = await storedAllocations(w.ds);
    w.view.failStatusWrites = undefined;
    await w.controller.syncNow();
    expect(w.view.getService('default', 'web')?.ingressIPs).toEqual([alloc?.ip]);
    expect(await w.controller.registry.getSingleMetricAsString('ipamkit_lb_errors_total')).toContain('ipamkit_lb_errors_total{operation="status"} 1');
  });

  it('exposes addresses per pool and pending Services through its registry', async () => {
    const w = await lbWorld(await memory(), { pools: [{ ...LB_POOL_V4, cidr: '10.96.100.0/31', blockSize: 31 }] });
    for (const name of ['a', 'b', 'c']) w.view.upsertService({ name });
    await w.settle();
    const text = await w.controller.registry.metrics();
    expect(text).toContain('ipamkit_lb_addresses_assigned{ippool="lb-v4"} 2');
    expect(text).toContain('ipamkit_lb_services_pending{reason="pool_exhausted"} 1');
  });

  it('recovers once the datastore answers again after a failed full sync', async () => {
    const ds = await memory();
    await ds.ipPools.create(LB_POOL_V4);
    const view = new MemoryLbClusterView();
    let failures = 1;
    const list = ds.ipPools.list.bind(ds.ipPools);
    // The first pool listing fails, as a datastore outage would.
    ds.ipPools.list = () => (failures-- > 0 ? Promise.reject(new Error('datastore unavailable')) : list());
    const controller = new LbController({ datastore: ds, view, fullSyncIntervalMs: 0 });
    view.upsertService({ name: 'web' });
    await controller.start();
    expect(await controller.registry.getSingleMetricAsString('ipamkit_lb_errors_total')).toContain('ipamkit_lb_errors_total{operation="load"} 1');
    // whenIdle also waits for the queued retry, which runs after a backoff.
    await controller.whenIdle();
    expect((await storedAllocations(ds)).length).toBe(1);
    await controller.assertConsistentState();
    await controller.stop();
    await ds.close();
  });

  it('repairs a missed delete through the periodic full sync', async () => {
    const w = await lbWorld(await memory(), { controller: { fullSyncIntervalMs: 100 } });
    w.view.upsertService({ name: 'web' });
    await w.settle();
    expect((await storedAllocations(w.ds)).length).toBe(1);
    w.view.deleteService('default', 'web', { notify: false });
    await vi.waitFor(async () => expect(await storedAllocations(w.ds)).toEqual([]), { timeout: 15_000, interval: 50 });
    await w.settle();
  });

  it('processes nothing until the load-balancer host upgrade succeeds, then syncs every Service', async () => {
    const ds = await memory();
    await ds.ipPools.create(LB_POOL_V4);
    const ipam = createIpamClient({ datastore: ds });
    const upgrade = ipam.upgradeHost.bind(ipam);
    const upgraded: string[] = [];
    let failFirst: ((err: Error) => void) | undefined;
    ipam.upgradeHost = (node) => {
      upgraded.push(node);
      return upgraded.length === 1 ? new Promise((_resolve, reject) => (failFirst = reject)) : upgrade(node);
    };
    const view = new MemoryLbClusterView();
    const controller = new LbController({ datastore: ds, view, ipam, fullSyncIntervalMs: 0, upgradeRetryMs: 10 });
    const started = controller.start();
    view.upsertService({ name: 'web' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await storedAllocations(ds)).toEqual([]);
    failFirst?.(new Error('datastore unavailable'));
    await started;
    expect(upgraded).toEqual(['load-balancer', 'load-balancer']);
    expect((await storedAllocations(ds)).length).toBe(1);
    await controller.assertConsistentState();
    await controller.stop();
    await ds.close();
  });

  it('settles, at start, a pending affinity a predecessor killed mid-claim left behind', async () => {
    const ds = await memory();
    await ds.ipPools.create(LB_POOL_V4);
    // The predecessor created its pending affinity, then died before writing the block.
    const affinity = { type: 'virtual' as const, host: 'load-balancer', cidr: '10.96.100.0/28' };
    await ds.affinities.create({ ...affinity, state: 'pending', deleted: false });
    const controller = await startController(ds, new MemoryLbClusterView(), { ownsDatastore: true });
    expect((await ds.affinities.get(affinity)).state).toBe('confirmed');
    expect((await ds.blocks.get(affinity.cidr)).affinity).toEqual({ type: 'virtual', host: 'load-balancer' });
    await controller.assertConsistentState();
  });

  it('rejects a negative full sync interval with a typed error', async () => {
    const ds = await memory();
    expect(() => new LbController({ datastore: ds, view: new MemoryLbClusterView(), fullSyncIntervalMs: -1 })).toThrow(LbConfigError);
    await ds.close();
  });
});
