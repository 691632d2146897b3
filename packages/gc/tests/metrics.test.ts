import { describe, expect, it } from 'vitest';
import { startMetricsServer } from '@ipamkit/kube-runtime';
import { SECOND, allocatePodIP, gcWorld, useGcWorlds } from './harness.js';
import type { Registry } from 'prom-client';

useGcWorlds();

/** Every series of `name` as `labels → value`, labels rendered `k=v,k=v` in name order. */
async function series(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return {};
  const out: Record<string, number> = {};
  for (const v of (await metric.get()).values) {
    const labels = Object.entries(v.labels).sort(([a], [b]) => a.localeCompare(b)).map(([k, l]) => `${k}=${String(l)}`).join(',');
    out[labels] = v.value;
  }
  return out;
}

describe('ipam_ippool_reserved and ipam_ippool_size', () => {
  it('counts overlapping reservations once, drops to zero, and loses the series with the pool', async () => {
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/24', blockSize: 26 }] });
    await w.ds.ipReservations.create({ name: 'r', reservedCIDRs: ['10.0.0.128/28', '10.0.0.128/29'] });
    await w.pass();
    expect(await series(w.gc.registry, 'ipam_ippool_reserved')).toEqual({ 'ippool=p': 16 });
    expect(await series(w.gc.registry, 'ipam_ippool_size')).toEqual({ 'ippool=p': 256 });
    await w.ds.ipReservations.delete('r');
    await w.pass();
    expect(await series(w.gc.registry, 'ipam_ippool_reserved')).toEqual({ 'ippool=p': 0 });
    await w.ds.ipPools.delete('p');
    await w.pass();
    expect(await series(w.gc.registry, 'ipam_ippool_reserved')).toEqual({});
    expect(await series(w.gc.registry, 'ipam_ippool_size')).toEqual({});
  });
});

describe('allocation gauges', () => {
  it('zero-seeds every node, counts in-use and borrowed addresses, candidates and reclamations', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'], fixtureInvariants: false });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    // node-b borrows from node-a's block.
    await w.ipam.assignIP({ ip: '10.0.0.6', hostname: 'node-a', handleId: 'k8s-pod-network.b', attrs: { node: 'node-b' }, intendedUse: 'Workload' });
    await w.pass({ full: true });
    const registry = w.gc.registry;
    expect(await series(registry, 'ipam_allocations_in_use')).toEqual({ 'ippool=default-ipv4,node=node-a': 1, 'ippool=default-ipv4,node=node-b': 1 });
    expect(await series(registry, 'ipam_allocations_borrowed')).toEqual({ 'ippool=default-ipv4,node=node-a': 0, 'ippool=default-ipv4,node=node-b': 1 });
    expect(await series(registry, 'ipam_blocks')).toEqual({ 'ippool=default-ipv4,node=node-a': 1 });
    expect(await series(registry, 'ipam_allocations_gc_candidates')).toEqual({ 'ippool=default-ipv4,node=node-a': 1, 'ippool=default-ipv4,node=node-b': 0 });
    expect(await series(registry, 'ipam_allocations_gc_reclamations')).toEqual({});
    expect(await series(registry, 'ipam_allocations_per_node')).toEqual({ 'node=node-a': 1, 'node=node-b': 1 });
    expect(await series(registry, 'ipam_allocations_borrowed_per_node')).toEqual({ 'node=node-b': 1 });
    expect(await series(registry, 'ipam_blocks_per_node')).toEqual({ 'node=node-a': 1 });
    w.clock.advanceMs(2 * SECOND);
    await w.pass({ full: true });
    expect(await series(registry, 'ipam_allocations_gc_reclamations')).toEqual({ 'ippool=default-ipv4,node=node-a': 1 });
    expect(await series(registry, 'ipam_allocations_gc_candidates')).toEqual({ 'ippool=default-ipv4,node=node-a': 0, 'ippool=default-ipv4,node=node-b': 0 });
  });

  it('drops a deleted node’s reclamation series once its cleanup succeeds', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'] });
    await allocatePodIP(w, { ip: '10.0.0.70', node: 'node-b', namespace: 'default', pod: 'gone' });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    await w.pass({ full: true });
    expect(await series(w.gc.registry, 'ipam_allocations_gc_reclamations')).toEqual({ 'ippool=default-ipv4,node=node-b': 1 });
    w.view.deleteNode('node-b');
    const result = await w.pass();
    expect(result.nodesReleased).toBe(1);
    expect(await series(w.gc.registry, 'ipam_allocations_gc_reclamations')).toEqual({});
  });
});

describe('the metrics server', () => {
  it('serves /metrics and /healthz on a port the OS picks', async () => {
    const w = await gcWorld();
    await w.pass();
    let healthy = true;
    const server = await startMetricsServer({ registry: w.gc.registry, port: 0, host: '127.0.0.1', healthy: () => healthy });
    try {
      const metrics = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('ipam_ippool_size{ippool="default-ipv4"} 256');
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      healthy = false;
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(503);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
