import { cidrContains } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { type DatastoreFactory, LB_POOL_V4, LB_POOL_V6, MANUAL_POOL_V4, lbWorld, storedAllocations } from '../harness.js';

const ips = async (w: { ds: Parameters<typeof storedAllocations>[0] }): Promise<string[]> => (await storedAllocations(w.ds)).map((a) => a.ip);

/** design/calico-callers.md#service-inputs (Service inputs) and design/calico-callers.md#per-service-sync (requested addresses, pools). */
export function requestScenarios(newDatastore: DatastoreFactory): void {
  describe('Service requests (design/calico-callers.md#service-inputs, design/calico-callers.md#per-service-sync)', () => {
    it('assigns the address of the loadBalancerIPs annotation', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.50"]' } });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.50']);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['10.96.100.50']);
    });

    it('assigns spec.loadBalancerIP when the annotation is absent, and prefers the annotation', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'a', loadBalancerIP: '10.96.100.9' });
      w.view.upsertService({ name: 'b', loadBalancerIP: '10.96.100.10', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.11"]' } });
      await w.settle();
      expect(await ips(w)).toEqual(['10.96.100.11', '10.96.100.9']);
    });

    it('restricts auto-assignment to the pools named, Manual pools included, by name or CIDR', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, MANUAL_POOL_V4] });
      w.view.upsertService({ name: 'by-name', annotations: { 'projectcalico.org/ipv4pools': '["lb-manual"]' } });
      w.view.upsertService({ name: 'by-cidr', annotations: { 'projectcalico.org/ipv4pools': '["10.96.200.0/24"]' } });
      await w.settle();
      const got = await ips(w);
      expect(got.length).toBe(2);
      expect(got.every((ip) => cidrContains(MANUAL_POOL_V4.cidr, ip))).toBe(true);
    });

    it.each([
      { title: 'annotation that is not JSON', annotations: { 'projectcalico.org/loadBalancerIPs': 'invalid' } },
      { title: 'pool that is neither a CIDR nor a known pool', annotations: { 'projectcalico.org/ipv4pools': '["no-such-pool"]' } },
      { title: 'pool of the wrong family', annotations: { 'projectcalico.org/ipv4pools': '["fd00::/64"]' } },
      { title: 'address that does not parse', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.500"]' } },
      { title: 'two IPv4 addresses', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.1","10.96.100.2"]' } },
    ])('skips a Service whose $title, assigning and releasing nothing', async ({ annotations }) => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web' });
      await w.settle();
      const before = await ips(w);
      expect(before.length).toBe(1);
      w.view.upsertService({ name: 'web', annotations });
      await w.settle();
      expect(await ips(w)).toEqual(before);
      expect([...w.controller.pendingServices.values()]).toEqual(['invalid_request']);
    });

    it('skips a Service whose spec.loadBalancerIP is not an address', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', loadBalancerIP: 'not-an-ip' });
      await w.settle();
      expect(await ips(w)).toEqual([]);
      expect([...w.controller.pendingServices.values()]).toEqual(['invalid_request']);
    });

    it('leaves a requested address that another Service holds with its owner', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'first', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.50"]' } });
      await w.settle();
      w.view.upsertService({ name: 'second', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.50"]' } });
      await w.settle();
      const allocs = await storedAllocations(w.ds);
      expect(allocs.map((a) => [a.ip, a.attrs['service']])).toEqual([['10.96.100.50', 'first']]);
      expect(w.view.getService('default', 'second')?.ingressIPs).toEqual([]);
      expect([...w.controller.pendingServices.values()]).toEqual(['assign_failed']);
    });

    it('uses only pools that allow LoadBalancer for requested addresses', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, { name: 'pods', cidr: '10.244.0.0/24', allowedUses: ['Workload'] }] });
      w.view.upsertService({ name: 'web', loadBalancerIP: '10.244.0.5' });
      await w.settle();
      expect(await ips(w)).toEqual([]);
    });
  });

  describe('dual stack (design/calico-callers.md#loadbalancer-defects)', () => {
    it('gives a RequireDualStack Service one address of each family', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, LB_POOL_V6] });
      w.view.upsertService({ name: 'web', ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
      await w.settle();
      const got = await ips(w);
      expect(got.length).toBe(2);
      expect(got.filter((ip) => cidrContains(LB_POOL_V4.cidr, ip)).length).toBe(1);
      expect(got.filter((ip) => cidrContains(LB_POOL_V6.cidr, ip)).length).toBe(1);
      expect([...(w.view.getService('default', 'web')?.ingressIPs ?? [])].sort()).toEqual([...got].sort());
    });

    it('gives a SingleStack IPv6 Service one IPv6 address', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, LB_POOL_V6] });
      w.view.upsertService({ name: 'web', ipFamilies: ['IPv6'], ipFamilyPolicy: 'SingleStack' });
      await w.settle();
      const got = await ips(w);
      expect(got.length).toBe(1);
      expect(cidrContains(LB_POOL_V6.cidr, got[0] ?? '')).toBe(true);
    });

    it('assigns nothing to a Service with no ipFamilies', async () => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', ipFamilies: [] });
      await w.settle();
      expect(await ips(w)).toEqual([]);
    });

    it('publishes both requested addresses of a SingleStack Service and keeps them', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [LB_POOL_V4, LB_POOL_V6] });
      w.view.upsertService({ name: 'web', annotations: { 'projectcalico.org/loadBalancerIPs': '["10.96.100.5","fd00:10:96::5"]' } });
      await w.settle();
      await w.controller.syncNow();
      expect(await ips(w)).toEqual(['10.96.100.5', 'fd00:10:96::5']);
      expect(w.view.getService('default', 'web')?.ingressIPs).toEqual(['10.96.100.5', 'fd00:10:96::5']);
    });
  });
}
