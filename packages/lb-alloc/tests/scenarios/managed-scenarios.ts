import { cidrContains, loadBalancerHandleId } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { type DatastoreFactory, LB_POOL_V4, MANUAL_POOL_V4, WORKLOAD_POOL_V4, lbWorld, storedAllocations } from '../harness.js';

/** design/calico-callers.md#managed-services (which Services), design/calico-callers.md#loadbalancer-handle (handle), design/calico-callers.md#loadbalancer-ipam-parameters (IPAM parameters). */
export function managedScenarios(newDatastore: DatastoreFactory): void {
  describe('which Services are managed (design/calico-callers.md#managed-services)', () => {
    it.each([
      { title: 'a class-less LoadBalancer Service', input: {}, assigned: true },
      { title: 'a Service of class calico', input: { loadBalancerClass: 'calico' }, assigned: true },
      { title: 'a Service of a foreign class', input: { loadBalancerClass: 'metallb' }, assigned: false },
      { title: 'a ClusterIP Service', input: { type: 'ClusterIP' }, assigned: false },
    ])('AllServices: $title gets an address: $assigned', async ({ input, assigned }) => {
      const w = await lbWorld(await newDatastore());
      w.view.upsertService({ name: 'web', ...input });
      await w.settle();
      expect((await storedAllocations(w.ds)).length).toBe(assigned ? 1 : 0);
      expect(w.view.getService('default', 'web')?.ingressIPs.length).toBe(assigned ? 1 : 0);
    });

    it.each([
      { title: 'an unannotated Service', input: {}, assigned: false },
      { title: 'a Service of class calico', input: { loadBalancerClass: 'calico' }, assigned: true },
      { title: 'a Service with a pool annotation', input: { annotations: { 'projectcalico.org/ipv4pools': '["lb-v4"]' } }, assigned: true },
      { title: 'a Service with spec.loadBalancerIP', input: { loadBalancerIP: '10.96.100.7' }, assigned: true },
      { title: 'a foreign-class Service with a Calico request', input: { loadBalancerClass: 'metallb', loadBalancerIP: '10.96.100.7' }, assigned: false },
    ])('RequestedServicesOnly: $title gets an address: $assigned', async ({ input, assigned }) => {
      const w = await lbWorld(await newDatastore(), { controller: { assignIPs: 'RequestedServicesOnly' } });
      w.view.upsertService({ name: 'web', ...input });
      await w.settle();
      expect((await storedAllocations(w.ds)).length).toBe(assigned ? 1 : 0);
    });

    it('manages nothing when assignIPs is neither mode', async () => {
      const w = await lbWorld(await newDatastore(), { controller: { assignIPs: 'Everything' } });
      w.view.upsertService({ name: 'web', loadBalancerClass: 'calico' });
      await w.settle();
      expect(await storedAllocations(w.ds)).toEqual([]);
    });
  });

  describe('allocation parameters (design/calico-callers.md#loadbalancer-handle, design/calico-callers.md#loadbalancer-ipam-parameters)', () => {
    it('allocates under the lb- handle with the Service attributes from a virtual:load-balancer block', async () => {
      const w = await lbWorld(await newDatastore());
      const svc = w.view.upsertService({ name: 'web', namespace: 'shop', uid: 'uid-web' });
      await w.settle();
      const [alloc, ...rest] = await storedAllocations(w.ds);
      expect(rest).toEqual([]);
      expect(alloc?.handle).toBe(loadBalancerHandleId(svc));
      expect(alloc?.affinity).toBe('virtual:load-balancer');
      expect(alloc?.attrs['service']).toBe('web');
      expect(alloc?.attrs['namespace']).toBe('shop');
      expect(alloc?.attrs['type']).toBe('LoadBalancer');
      expect(alloc?.attrs['timestamp']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC$/);
      expect(alloc?.attrs['node']).toBeUndefined();
      expect(cidrContains(LB_POOL_V4.cidr, alloc?.ip ?? '')).toBe(true);
      expect(w.view.getService('shop', 'web')?.ingressIPs).toEqual([alloc?.ip]);
    });

    it('never auto-assigns from a Manual pool or a Workload-only pool', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [MANUAL_POOL_V4, WORKLOAD_POOL_V4, LB_POOL_V4] });
      for (const name of ['a', 'b', 'c']) w.view.upsertService({ name });
      await w.settle();
      const ips = (await storedAllocations(w.ds)).map((a) => a.ip);
      expect(ips.length).toBe(3);
      expect(ips.every((ip) => cidrContains(LB_POOL_V4.cidr, ip))).toBe(true);
    });

    it('assigns nothing and reports the Service pending when no pool allows LoadBalancer', async () => {
      const w = await lbWorld(await newDatastore(), { pools: [WORKLOAD_POOL_V4] });
      w.view.upsertService({ name: 'web' });
      await w.settle();
      expect(await storedAllocations(w.ds)).toEqual([]);
      expect([...w.controller.pendingServices.values()]).toEqual(['no_pools']);
    });
  });
}
