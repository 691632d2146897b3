import type { IPAMConfig, IPPool, Node } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { computeRunway, createIpamClient, loadClusterSnapshot, type RunwayReport } from '../../src/index.js';
import { BACKENDS, strictConfig, useBackends, world, type Backend, type World } from '../client/fixtures.js';
import { fillForReal, type FillNode, type RealFill } from './fill-for-real.js';

useBackends();

const REAL_BACKENDS = BACKENDS.filter((b) => b.name === 'sqlite' || b.name === 'etcd');
const looseConfig: IPAMConfig = { ...strictConfig, strictAffinity: false };
const threeNodes: Node[] = [{ name: 'node-a' }, { name: 'node-b' }, { name: 'node-c' }];
const slash24 = (blockSize: number, extra: Partial<IPPool> = {}): IPPool => ({ name: 'pods', cidr: '10.0.0.0/24', blockSize, ...extra });

function fillNodes(w: World, nodes: readonly Node[], windows: readonly string[] = []): FillNode[] {
  return nodes.map((n) =>
    windows.includes(n.name)
      ? { name: n.name, windows: true, ipam: createIpamClient({ datastore: w.ds, clock: w.clock, windowsHost: true }) }
      : { name: n.name, ipam: w.ipam },
  );
}

async function predict(w: World): Promise<RunwayReport> {
  return computeRunway(await loadClusterSnapshot(w.ds, w.clock.now()), { ipVersions: [4] });
}

/** Exact agreement for a per-node limit: the same node fails after the same number of pods. */
function expectExactFirstFailure(report: RunwayReport, real: RealFill): void {
  expect(real.firstFailure).toBeDefined();
  expect({ node: report.firstFailure?.node, afterPods: report.firstFailure?.afterPods }).toEqual(real.firstFailure);
}

describe.each(REAL_BACKENDS)('runway predictions against a real fill on $name', (backend: Backend) => {
  it('predicts the per-host block cap exactly', async () => {
    const w = await world(backend, { pools: [slash24(28)], nodes: threeNodes, config: { ...strictConfig, maxBlocksPerHost: 2 } });
    const report = await predict(w);
    expect(report.firstFailure?.failure.limit).toBe('block-limit');
    expect(report.nodes.map((n) => n.alone)).toEqual([32, 32, 32]);
    expectExactFirstFailure(report, await fillForReal(fillNodes(w, threeNodes), { maxPods: 400 }));
  }, 120_000);

  it('predicts strict affinity running out of blocks exactly', async () => {
    const w = await world(backend, { pools: [slash24(26)], nodes: threeNodes, config: strictConfig });
    const report = await predict(w);
    expect(report.firstFailure?.failure.limit).toBe('strict-affinity');
    expectExactFirstFailure(report, await fillForReal(fillNodes(w, threeNodes), { maxPods: 400 }));
  }, 120_000);

  it('predicts a pool with a reservation running dry within one block when nodes borrow', async () => {
    const w = await world(backend, { pools: [slash24(28)], nodes: threeNodes, config: looseConfig });
    await w.ds.ipReservations.create({ name: 'gateways', reservedCIDRs: ['10.0.0.0/30', '10.0.0.200/29'] });
    const report = await predict(w);
    expect(report.firstFailure?.failure.limit).toBe('pools-exhausted');
    const real = await fillForReal(fillNodes(w, threeNodes), { maxPods: 400 });
    expect(real.firstFailure).toBeDefined();
    const [pool] = report.pools;
    expect(Math.abs(Number(pool?.available) - real.placed)).toBeLessThanOrEqual(16);
    expect(Math.abs((report.firstFailure?.afterPods ?? -1) - real.placed)).toBeLessThanOrEqual(16);
  }, 120_000);

  it('predicts a node its pools do not select failing on its first pod', async () => {
    const nodes: Node[] = [{ name: 'node-a', labels: { zone: 'a' } }, { name: 'node-b' }];
    const w = await world(backend, { pools: [slash24(26, { nodeSelector: "zone == 'a'" })], nodes, config: strictConfig });
    const report = await predict(w);
    expect(report.firstFailure?.failure.limit).toBe('no-pool');
    expect(report.nodes.find((n) => n.node === 'node-b')?.reason).toBe('IPv4: no enabled IPv4 pool selects node node-b for workloads');
    expectExactFirstFailure(report, await fillForReal(fillNodes(w, nodes), { maxPods: 400 }));
  }, 120_000);

  it('predicts from a cluster already in use, released addresses included, exactly', async () => {
    const w = await world(backend, { pools: [slash24(28)], nodes: threeNodes, config: { ...strictConfig, maxBlocksPerHost: 3 } });
    const warmUp = await fillForReal(fillNodes(w, threeNodes.slice(1)), { target: 21, maxPods: 100 });
    expect(warmUp.placed).toBe(42);
    await w.ipam.releaseByHandle('k8s-pod-network.node-b-pod-3');
    const report = await predict(w);
    expect(report.nodes.map((n) => n.alone)).toEqual([48, 28, 27]);
    expectExactFirstFailure(report, await fillForReal(fillNodes(w, threeNodes), { maxPods: 400 }));
  }, 120_000);

  it('predicts a Windows node, whose new blocks lose four addresses, exactly', async () => {
    const nodes: Node[] = [{ name: 'node-a' }, { name: 'node-w', labels: { 'kubernetes.io/os': 'windows' } }];
    const w = await world(backend, { pools: [slash24(28)], nodes, config: { ...strictConfig, maxBlocksPerHost: 2 } });
    const report = await predict(w);
    expect(report.nodes.map((n) => n.alone)).toEqual([32, 24]);
    expectExactFirstFailure(report, await fillForReal(fillNodes(w, nodes, ['node-w']), { maxPods: 400 }));
  }, 120_000);
});
