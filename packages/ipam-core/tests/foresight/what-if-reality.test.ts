import type { IPAMConfig, IPPool, Node } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { applyWhatIf, computeRunway, loadClusterSnapshot, type RunwayReport, type WhatIfChange } from '../../src/index.js';
import { BACKENDS, strictConfig, useBackends, world, type Backend, type World } from '../client/fixtures.js';
import { fillForReal, writeConfig, type RealFill } from './fill-for-real.js';

useBackends();

const REAL_BACKENDS = BACKENDS.filter((b) => b.name === 'sqlite' || b.name === 'etcd');
const looseConfig: IPAMConfig = { ...strictConfig, strictAffinity: false };
const nodesNamed = (...names: string[]): Node[] => names.map((name) => ({ name }));
const pool = (name: string, cidr: string, blockSize: number): IPPool => ({ name, cidr, blockSize });

async function predictAfter(w: World, change: WhatIfChange, podsPerNode?: number): Promise<RunwayReport> {
  const snapshot = applyWhatIf(await loadClusterSnapshot(w.ds, w.clock.now()), change);
  return computeRunway(snapshot, { ipVersions: [4], ...(podsPerNode === undefined ? {} : { podsPerNode }) });
}

async function fillAll(w: World, options: { target?: number } = {}): Promise<RealFill> {
  const nodes = await w.ds.nodes.list();
  return fillForReal(nodes.map((n) => ({ name: n.name, ipam: w.ipam })), { ...options, maxPods: 1000 });
}

function expectExact(report: RunwayReport, real: RealFill): void {
  expect(real.firstFailure).toBeDefined();
  expect({ node: report.firstFailure?.node, afterPods: report.firstFailure?.afterPods }).toEqual(real.firstFailure);
}

async function updatePool(w: World, name: string, change: Partial<IPPool>): Promise<void> {
  const stored = await w.ds.ipPools.get(name);
  await w.ds.ipPools.update({ ...stored, ...change });
}

describe.each(REAL_BACKENDS)('what-if predictions against the change made for real on $name', (backend: Backend) => {
  it('--add-nodes: two more nodes, each under the cap', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/24', 28)], nodes: nodesNamed('node-a', 'node-b'), config: { ...strictConfig, maxBlocksPerHost: 2 } });
    const before = computeRunway(await loadClusterSnapshot(w.ds, w.clock.now()), { ipVersions: [4] });
    const after = await predictAfter(w, { addNodes: { count: 2 } });
    expect(after.firstFailure?.afterPods).not.toBe(before.firstFailure?.afterPods);
    await Promise.all(['what-if-node-1', 'what-if-node-2'].map((name) => w.ds.nodes.create({ name })));
    expectExact(after, await fillAll(w));
  }, 120_000);

  it('--pods-per-node: names the nodes that cannot reach the target', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/24', 28)], nodes: nodesNamed('node-a', 'node-b', 'node-c'), config: strictConfig });
    const after = await predictAfter(w, {}, 90);
    const real = await fillAll(w, { target: 90 });
    const unable = after.nodes.filter((n) => n.reachesTarget === false).map((n) => n.node);
    expect(unable.length).toBeGreaterThan(0);
    expect(unable).toEqual([...real.perNode].filter(([, r]) => r.failed).map(([name]) => name));
    expect(after.nodes.map((n) => n.inFill)).toEqual([...real.perNode.values()].map((r) => r.placed));
  }, 120_000);

  it('--block-size: smaller blocks under the same cap', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/24', 26)], nodes: nodesNamed('node-a', 'node-b', 'node-c'), config: { ...strictConfig, maxBlocksPerHost: 3 } });
    const after = await predictAfter(w, { blockSize: { size: 28 } });
    expect(after.firstFailure?.failure.limit).toBe('block-limit');
    // A pool's block size cannot change: the real change is the pool made again (it holds no blocks).
    await w.ds.ipPools.delete('pods');
    await w.ds.ipPools.create(pool('pods', '10.0.0.0/24', 28));
    expectExact(after, await fillAll(w));
  }, 120_000);

  it('--strict-affinity: borrowing stops', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/24', 26)], nodes: nodesNamed('node-a', 'node-b', 'node-c'), config: looseConfig });
    const after = await predictAfter(w, { strictAffinity: true });
    expect(after.firstFailure?.failure.limit).toBe('strict-affinity');
    await writeConfig(w.ds, { ...looseConfig, strictAffinity: true });
    expectExact(after, await fillAll(w));
  }, 120_000);

  it('--max-blocks-per-host: the cap binds first', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/24', 28)], nodes: nodesNamed('node-a', 'node-b'), config: strictConfig });
    const after = await predictAfter(w, { maxBlocksPerHost: 3 });
    expect(after.firstFailure?.failure.limit).toBe('block-limit');
    await writeConfig(w.ds, { ...strictConfig, maxBlocksPerHost: 3 });
    expectExact(after, await fillAll(w));
  }, 120_000);

  it('--disable-pool: the other pool takes the load, within one block', async () => {
    const pools = [pool('old', '10.0.0.0/24', 28), pool('new', '10.0.1.0/25', 28)];
    const w = await world(backend, { pools, nodes: nodesNamed('node-a', 'node-b', 'node-c'), config: looseConfig });
    await fillForReal([{ name: 'node-a', ipam: w.ipam }], { target: 5, maxPods: 10 });
    const after = await predictAfter(w, { disablePools: ['old'] });
    expect(after.pools.find((p) => p.pool === 'old')?.enabled).toBe(false);
    await updatePool(w, 'old', { disabled: true });
    const real = await fillAll(w);
    expect(real.firstFailure).toBeDefined();
    const predicted = after.firstFailure?.afterPods ?? -1;
    expect(Math.abs(predicted - real.placed)).toBeLessThanOrEqual(16);
    expect(Math.abs(Number(after.pools.find((p) => p.pool === 'new')?.available) - real.placed)).toBeLessThanOrEqual(16);
  }, 120_000);

  it('--add-pool: more blocks to claim under strict affinity', async () => {
    const w = await world(backend, { pools: [pool('pods', '10.0.0.0/26', 28)], nodes: nodesNamed('node-a', 'node-b', 'node-c'), config: strictConfig });
    const added = pool('more', '10.0.1.0/26', 28);
    const before = computeRunway(await loadClusterSnapshot(w.ds, w.clock.now()), { ipVersions: [4] });
    const after = await predictAfter(w, { addPools: [added] });
    expect(after.firstFailure?.afterPods).toBeGreaterThan(before.firstFailure?.afterPods ?? Number.POSITIVE_INFINITY);
    await w.ds.ipPools.create(added);
    expectExact(after, await fillAll(w));
  }, 120_000);
});
