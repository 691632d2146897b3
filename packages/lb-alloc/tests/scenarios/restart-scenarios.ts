import { describe, expect, it } from 'vitest';
import { MemoryLbClusterView } from '../../src/cluster-view/memory-lb-cluster-view.js';
import { type DatastoreFactory, LB_POOL_V4, seedPools, startController, storedAllocations } from '../harness.js';

/** The restart acceptance test: controllers one after another never hand out an address twice. */
export function restartScenarios(newDatastore: DatastoreFactory): void {
  describe('restart', () => {
    it('two controllers started one after another never give two Services the same address', async () => {
      const ds = await newDatastore();
      await seedPools(ds, [{ ...LB_POOL_V4, cidr: '10.96.100.0/27' }]);
      const view = new MemoryLbClusterView();
      const first = await startController(ds, view);
      for (let i = 0; i < 6; i++) view.upsertService({ name: `svc-${String(i)}`, uid: `u${String(i)}` });
      await first.whenIdle();
      const assignedByFirst = new Map([...view.listServices()].map((s) => [s.name, s.ingressIPs]));
      await first.stop();

      // The second instance's cache has lost every status (worst case) and has new Services too.
      const view2 = new MemoryLbClusterView();
      for (let i = 0; i < 12; i++) view2.upsertService({ name: `svc-${String(i)}`, uid: `u${String(i)}` });
      const second = await startController(ds, view2, { ownsDatastore: true });
      await second.whenIdle();

      const allocs = await storedAllocations(ds);
      expect(allocs.length).toBe(12);
      expect(new Set(allocs.map((a) => a.ip)).size).toBe(12);
      expect(new Set(allocs.map((a) => a.handle)).size).toBe(12);
      const ingress = [...view2.listServices()].flatMap((s) => s.ingressIPs);
      expect(new Set(ingress).size).toBe(12);
      for (const [name, ipsBefore] of assignedByFirst) expect(view2.getService('default', name)?.ingressIPs).toEqual(ipsBefore);
    });
  });
}
