import { describe, expect, it } from 'vitest';
import { runSim, type SimResult } from '../src/run/run-sim.js';
import { resolveRunOptions } from '../src/run/run-options.js';
import { SimConfigError } from '../src/errors.js';
import { injectDuplicate } from './helpers/inject-duplicate.js';

const SMALL = { nodes: 10, pods: 60, churn: 2, services: 4, gracePeriodMs: 500, settleTimeoutMs: 60_000 } as const;

describe('runSim on SQLite', () => {
  let result: SimResult;

  it('churns pods through runCni and ends with no leak and no duplicate', async () => {
    result = await runSim(SMALL);
    expect(result.check.violations).toEqual([]);
    expect(result.stats.adds).toBeGreaterThanOrEqual(60);
    expect(result.stats.failures).toBe(0);
    expect(result.check.leaks).toBe(0);
    expect(result.check.duplicates).toBe(0);
    expect(result.nodesDeleted).toBe(1);
    // Every node got an IPIP tunnel address from its v4 pool.
    expect(result.tunnelAddresses).toBe(10);
  });

  it('counts datastore round trips per ADD and reports the pools in the show table', () => {
    expect(result.roundTripsPerAdd).toBeGreaterThan(0);
    for (const cidr of ['10.244.0.0/16', '10.245.0.0/19', 'fd00:10:244::/112', '10.96.200.0/24']) expect(result.showTable).toContain(cidr);
  });

  it('draws a heatmap cell per claimed block, labelled by its node', () => {
    const v4 = result.heatmaps.find((m) => m.pool === 'pods-v4');
    expect(v4?.cells.length).toBeGreaterThan(0);
    expect(v4?.cells.every((c) => c.owner.startsWith('host:sim-node-'))).toBe(true);
    const lb = result.heatmaps.find((m) => m.pool === 'load-balancer');
    expect(lb?.cells.map((c) => c.owner)).toEqual(['virtual:load-balancer']);
  });

  it('fails loudly when a duplicate allocation is injected into the datastore', async () => {
    const r = await runSim({ ...SMALL, nodes: 4, pods: 8 }, {
      beforeCheck: async (ds) => {
        await injectDuplicate(ds);
      },
    });
    expect(r.check.duplicates).toBeGreaterThan(0);
    expect(r.check.violations).toContainEqual(expect.stringMatching(/^duplicate allocation: 10\.99\.0\.1 is held 2 times \(injected-[ab] in 10\.99\.0\.0\/2[68], injected-[ab] in 10\.99\.0\.0\/2[68]\)$/));
  });
});

describe('runSim with spawn (--spawn)', () => {
  it('runs every CNI call as the built calico-ipam bin and ends with no leak and no duplicate', async () => {
    const r = await runSim({ nodes: 2, pods: 4, churn: 2, services: 0, gracePeriodMs: 500, settleTimeoutMs: 60_000, spawn: true });
    expect(r.check.violations).toEqual([]);
    expect(r.stats.failures).toBe(0);
    // Each of the 4 pod slots is filled twice: 8 ADDs, and the first 4 pods leave by DEL (or by the GC).
    expect(r.stats.adds).toBe(8);
    expect(r.stats.dels + r.stats.lostDeletes).toBe(4);
    expect([r.check.leaks, r.check.duplicates]).toEqual([0, 0]);
    // The bin opens its own datastore from the network config, so the sim cannot count its round trips.
    expect(r.roundTripsPerAdd).toBeUndefined();
  });
});

describe('resolveRunOptions', () => {
  it.each([
    { partial: { nodes: 1 }, message: '--nodes must be an integer from 2 to 1000, got 1' },
    { partial: { nodes: 10, pods: 5 }, message: '--pods must be an integer from 10 to 2000, got 5' },
    { partial: { churn: 0 }, message: '--churn must be an integer from 1 to 100, got 0' },
    { partial: { datastore: 'mysql' as 'sqlite' }, message: '--datastore must be sqlite or etcd, got mysql' },
  ])('rejects $partial', ({ partial, message }) => {
    expect(() => resolveRunOptions(partial)).toThrow(new SimConfigError(message));
  });
});
