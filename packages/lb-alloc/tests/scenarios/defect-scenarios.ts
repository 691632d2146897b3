import { cidrContains } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { type DatastoreFactory, LB_POOL_V4, LB_POOL_V6, lbWorld, storedAllocations } from '../harness.js';

const ips = async (w: { ds: Parameters<typeof storedAllocations>[0] }): Promise<string[]> => (await storedAllocations(w.ds)).map((a) => a.ip);

/** The Calico defects of design/calico-callers.md#loadbalancer-defects that ipamkit fixes (design/lb-alloc.md "Fixed defects"). */
export function defectScenarios(newDatastore: DatastoreFactory): void {
  describe('fixed Calico defects', () => {
    it('fills the missing family of a dual-stack Service once a pool of that family appears', async () => {
      const ds = await newDatastore();
      const w = await lbWorld(ds, { pools: [LB_POOL_V4] });
      w.view.upsertService({ name: 'web', ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' });
      await w.settle();
      const [v4] = await ips(w);
      expect(cidrContains(LB_POOL_V4.cidr, v4 ?? '')).toBe(true);
      expect([...w.controller.pendingServices.values()]).toEqual(['no_pools']);
      await ds.ipPools.create(LB_POOL_V6);
      await w.controller.syncNow();
      const got = await ips(w);
      expect(got.length).toBe(2);
      expect(got[0]).toBe(v4);
      expect(cidrContains(LB_POOL_V6.cidr, got[1] ?? '')).toBe(true);
      expect([...w.controller.pendingServices.values()]).toEqual([]);
    });

    it('keeps the IPv4 address of a Service annotated only with ipv6pools across syncs', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, LB_POOL_V6] });
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/ipv6pools': '["lb-v6"]' } });
      await w.settle();
      const first = await storedAllocations(w.ds);
      expect(first.length).toBe(1);
      for (let i = 0; i < 3; i++) await w.controller.syncNow();
      // Same address and the same allocation (no release-and-reassign in between).
      expect(await storedAllocations(w.ds)).toEqual(first);
    });

    it('keeps the address of a Service whose pool annotation is an empty array across syncs', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/ipv4pools': '[]' } });
      await w.settle();
      const first = await storedAllocations(w.ds);
      expect(first.length).toBe(1);
      for (let i = 0; i < 3; i++) await w.controller.syncNow();
      expect(await storedAllocations(w.ds)).toEqual(first);
    });

    it('moves a Service when spec.loadBalancerIP changes after assignment', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', loadBalancerIP: '10.96.100.20' });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.20']);
      w.view.upsertService({ name: 'web', loadBalancerIP: '10.96.100.21' });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.21']);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['10.96.100.21']);
    });

    it('moves an auto-assigned Service when spec.loadBalancerIP is set later', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      w.view.upsertService({ name: 'web', loadBalancerIP: '10.96.100.77' });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.77']);
    });

    it('moves a Service when its loadBalancerIPs annotation changes', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.30"]' } });
      await w.settle();
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.31"]' } });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.31']);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['10.96.100.31']);
    });
  });
}
