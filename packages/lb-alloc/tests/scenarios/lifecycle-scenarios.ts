import { cidrContains } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { MemoryLbClusterView } from '../../src/cluster-view/memory-lb-cluster-view.js';
import { type DatastoreFactory, LB_POOL_V4, MANUAL_POOL_V4, lbWorld, seedPools, startController, storedAllocations } from '../harness.js';

const ips = async (w: { ds: Parameters<typeof storedAllocations>[0] }): Promise<string[]> => (await storedAllocations(w.ds)).map((a) => a.ip);

/** design/calico-callers.md#cold-start-and-events (cold start), design/calico-callers.md#per-service-sync (changes), design/calico-callers.md#loadbalancer-release-paths (release paths), design/calico-callers.md#loadbalancer-leaks (leaks). */
export function lifecycleScenarios(newDatastore: DatastoreFactory): void {
  describe('release paths (design/calico-callers.md#per-service-sync, design/calico-callers.md#loadbalancer-release-paths)', () => {
    it('releases the address when the Service is deleted', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      expect((await ips(w)).length).toBe(1);
      w.view.deleteService('default', 'web');
      await w.settle();
      expect(await ips(w)).toEqual([]);
      expect(w.controller.tracker.allIPs()).toEqual([]);
    });

    it('releases a missed delete at the next full sync (design/calico-callers.md#loadbalancer-leaks)', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      w.view.deleteService('default', 'web', { notify: false });
      await w.settle();
      expect((await ips(w)).length).toBe(1);
      await w.controller.syncNow();
      expect(await ips(w)).toEqual([]);
    });

    it('releases the address when the type changes away from LoadBalancer', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      w.view.upsertService({ name: 'web', type: 'ClusterIP' });
      await w.settle();
      expect(await ips(w)).toEqual([]);
    });

    it('releases on a change to a foreign class and keeps the other controller\'s ingress entries', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      const [mine] = await ips(w);
      w.view.upsertService({ name: 'web', loadBalancerClass: 'metallb', ingressIPs: [mine ?? '', '192.0.2.1'] });
      await w.settle();
      expect(await ips(w)).toEqual([]);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['192.0.2.1']);
    });

    it('releases and clears the ingress when the last LoadBalancer pool goes', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      const pool = await w.ds.ipPools.get(LB_POOL_V4.name);
      await w.ds.ipPools.update({ ...pool, allowedUses: ['Workload'] });
      await w.controller.syncNow();
      expect(await ips(w)).toEqual([]);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual([]);
    });

    it('moves a Service to the address its annotation names', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.50"]' } });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.50']);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['10.96.100.50']);
    });

    it('moves a Service out of a Manual pool once its pool annotation is removed', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, MANUAL_POOL_V4] });
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/ipv4pools': '["lb-manual"]' } });
      await w.settle();
      expect(cidrContains(MANUAL_POOL_V4.cidr, (await ips(w))[0] ?? '')).toBe(true);
      w.view.upsertService({ name: 'web', annotations: {} });
      await w.settle();
      const got = await ips(w);
      expect(got.length).toBe(1);
      expect(cidrContains(LB_POOL_V4.cidr, got[0] ?? '')).toBe(true);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(got);
    });

    it('moves a Service into newly annotated pools', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, MANUAL_POOL_V4] });
      w.view.upsertService({ name: 'web' });
      await w.settle();
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/ipv4pools': '["10.96.200.0/24"]' } });
      await w.settle();
      const got = await ips(w);
      expect(got.length).toBe(1);
      expect(cidrContains(MANUAL_POOL_V4.cidr, got[0] ?? '')).toBe(true);
    });

    it('gives a re-created Service (new UID, same name) a new handle and frees the old one', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', uid: 'one' });
      await w.settle();
      w.view.deleteService('default', 'web', { notify: false });
      w.view.upsertService({ name: 'web', uid: 'two' });
      await w.settle();
      const allocs = await storedAllocations(w.ds);
      expect(allocs.length).toBe(1);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual([allocs[0]?.ip]);
      expect(w.controller.tracker.serviceKeys().map((k) => k.handle)).toEqual([allocs[0]?.handle]);
    });
  });

  describe('cold start (design/calico-callers.md#cold-start-and-events)', () => {
    it('assigns a Service that existed before start in the first full sync', async () => {
      const ds = await newDatastore();
      await seedPools(ds, [LB_POOL_V4]);
      const view = new MemoryLbClusterView();
      view.upsertService({ name: 'early' });
      const controller = await startController(ds, view, { ownsDatastore: true });
      expect((await storedAllocations(ds)).length).toBe(1);
      expect(controller.tracker.allIPs().length).toBe(1);
    });

    it('learns existing allocations at start and never gives a second address', async () => {
      const ds = await newDatastore();
      await seedPools(ds, [LB_POOL_V4]);
      const view = new MemoryLbClusterView();
      const first = await startController(ds, view);
      view.upsertService({ name: 'web', uid: 'u1' });
      await first.whenIdle();
      await first.stop();
      const before = await storedAllocations(ds);
      // The new instance sees the Service with an empty status (e.g. the write was lost).
      const view2 = new MemoryLbClusterView();
      view2.upsertService({ name: 'web', uid: 'u1' });
      const second = await startController(ds, view2, { ownsDatastore: true });
      await second.whenIdle();
      expect(await storedAllocations(ds)).toEqual(before);
      expect(view2.getService('default', 'web')?.ingressIPs).toEqual([before[0]?.ip]);
    });
  });
}
