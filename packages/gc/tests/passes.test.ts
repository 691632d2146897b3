import { ConflictError, type IPAMConfig } from '@ipamkit/models';
import type { IpamClient } from '@ipamkit/ipam-core';
import { describe, expect, it } from 'vitest';
import { applyInput } from '../src/controller/gc-inputs.js';
import type { GcController } from '../src/controller/gc-controller.js';
import { GcState } from '../src/state/gc-state.js';
import { makeBlock } from './block-fixtures.js';
import { HOUR, SECOND, allocatePodIP, allocatedIPs, affinityHosts, gcWorld, useGcWorlds } from './harness.js';

useGcWorlds();

const cooldown = (seconds: number): IPAMConfig => ({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: seconds });

/** An IPAM client whose chosen calls fail while their key is in `failing`. */
function failingIpam(ipam: IpamClient, failing: { hosts: Set<string>; coldBlocks: Set<string> }): IpamClient {
  return {
    ...ipam,
    releaseHostAffinities: (affinity, mustBeEmpty) =>
      failing.hosts.has(affinity.host) ? Promise.reject(new Error(`injected failure for ${affinity.host}`)) : ipam.releaseHostAffinities(affinity, mustBeEmpty),
    garbageCollectColdIPs: (cidr) => (failing.coldBlocks.has(cidr) ? Promise.reject(new ConflictError(cidr)) : ipam.garbageCollectColdIPs(cidr)),
  };
}

describe('cold-IP collection', () => {
  it('writes only blocks whose cooldown has run out and forgets them once freed', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b', 'node-c'], config: cooldown(3600) });
    const old = await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    const fresh = await allocatePodIP(w, { ip: '10.0.0.70', node: 'node-b' });
    await allocatePodIP(w, { ip: '10.0.0.130', node: 'node-c' });
    await w.ipam.releaseByHandle(old);
    w.clock.advanceMs(2 * HOUR);
    await w.ipam.releaseByHandle(fresh);
    await w.gc.refresh();
    expect([...w.gc.state.coldBlocks.keys()].sort()).toEqual(['10.0.0.0/26', '10.0.0.64/26']);
    const result = await w.gc.syncNow({ full: true });
    expect(result.coldBlocksVisited).toBe(1);
    await w.gc.refresh();
    expect([...w.gc.state.coldBlocks.keys()]).toEqual(['10.0.0.64/26']);
  });

  it('skips a block with a persistent conflict and still cleans up deleted nodes', async () => {
    const failing = { hosts: new Set<string>(), coldBlocks: new Set(['10.0.0.0/26']) };
    const w = await gcWorld({ nodes: ['node-a', 'node-b'], config: cooldown(60) });
    const ipam = failingIpam(w.ipam, failing);
    await w.gc.stop();
    const { GcController } = await import('../src/controller/gc-controller.js');
    const gc = new GcController({ datastore: w.ds, view: w.view, ipam, clock: w.clock, leakGracePeriodMs: SECOND, background: false });
    await gc.start();
    const a = await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    const b = await allocatePodIP(w, { ip: '10.0.0.70', node: 'node-b' });
    await w.ipam.releaseByHandle(a);
    await w.ipam.releaseByHandle(b);
    await w.ipam.claimAffinity('10.0.0.128/26', { affinityType: 'host', host: 'ghost' });
    w.clock.advanceMs(2 * 60 * SECOND);
    await gc.refresh();
    const result = await gc.syncNow({ full: true });
    expect(result.coldBlocksVisited).toBe(1);
    expect(result.nodesReleased).toBe(1);
    expect(await affinityHosts(w.ds)).toEqual(['node-a:10.0.0.0/26', 'node-b:10.0.0.64/26']);
    await gc.refresh();
    expect([...gc.state.coldBlocks.keys()]).toEqual(['10.0.0.0/26']);
    await gc.assertConsistentState({ fixtureInvariants: true });
    await gc.stop();
  });
});

describe('deleted-node cleanup failures', () => {
  async function threeGhosts(failHosts: string[]): Promise<{ w: Awaited<ReturnType<typeof gcWorld>>; failing: Set<string>; gc: GcController }> {
    const failing = new Set(failHosts);
    const w = await gcWorld();
    await w.gc.stop();
    const { GcController } = await import('../src/controller/gc-controller.js');
    const gc = new GcController({ datastore: w.ds, view: w.view, ipam: failingIpam(w.ipam, { hosts: failing, coldBlocks: new Set() }), clock: w.clock, leakGracePeriodMs: SECOND, background: false });
    await gc.start();
    for (const [i, host] of ['ghost-1', 'ghost-2', 'ghost-3'].entries()) await w.ipam.claimAffinity(`10.0.0.${i * 64}/26`, { affinityType: 'host', host });
    await gc.refresh();
    return { w, failing, gc };
  }

  it('releases the healthy node, keeps only the failing ones dirty, and recovers them later', async () => {
    const { w, failing, gc } = await threeGhosts(['ghost-1', 'ghost-2']);
    const first = await gc.syncNow({ full: true });
    expect(first.nodesReleased).toBe(1);
    expect(first.workRemaining?.failedNodes).toBe(2);
    expect([...gc.state.dirtyNodes].sort()).toEqual(['ghost-1', 'ghost-2']);
    expect(await affinityHosts(w.ds)).toEqual(['ghost-1:10.0.0.0/26', 'ghost-2:10.0.0.64/26']);
    failing.delete('ghost-1');
    await gc.refresh();
    const second = await gc.syncNow();
    expect(second.nodesReleased).toBe(1);
    expect([...gc.state.dirtyNodes]).toEqual(['ghost-2']);
    failing.clear();
    await gc.refresh();
    await gc.syncNow();
    expect(gc.state.dirtyNodes.size).toBe(0);
    expect(await affinityHosts(w.ds)).toEqual([]);
    await gc.assertConsistentState({ fixtureInvariants: true });
    await gc.stop();
  });

  it('keeps every node dirty (and no more) while all cleanups fail, then recovers all', async () => {
    const { w, failing, gc } = await threeGhosts(['ghost-1', 'ghost-2', 'ghost-3']);
    for (let i = 0; i < 3; i++) {
      const result = await gc.syncNow({ full: true });
      expect(result.nodesReleased).toBe(0);
      expect(gc.state.dirtyNodes.size).toBe(3);
    }
    failing.clear();
    await gc.syncNow();
    expect(gc.state.dirtyNodes.size).toBe(0);
    expect(await affinityHosts(w.ds)).toEqual([]);
    await gc.refresh();
    await gc.assertConsistentState({ fixtureInvariants: true });
    await gc.stop();
  });
});

describe('sync gating', () => {
  it('skips passes while the datastore is not ready and resumes once it is', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    await w.gc.setDatastoreReady(false);
    expect((await w.pass({ full: true })).ran).toBe(false);
    await w.gc.setDatastoreReady(true);
    expect((await w.pass({ full: true })).ran).toBe(true);
    expect(w.gc.state.allocationsByNode.get('node-a')?.values().next().value?.isCandidateLeak()).toBe(true);
  });
});

describe('Calico node cache (etcd mode)', () => {
  it('follows the k8s orchestrator reference through add, rename and delete', () => {
    const state = new GcState();
    const node = (nodeName?: string) => ({
      name: 'cname',
      revision: '1',
      ...(nodeName === undefined ? {} : { unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName }] } } }),
    });
    applyInput(state, undefined, { kind: 'nodes', event: { type: 'added', key: 'cname', object: node('kname'), revision: '1' } });
    expect(state.kubernetesNodesByCalicoName.get('cname')).toBe('kname');
    applyInput(state, undefined, { kind: 'nodes', event: { type: 'modified', key: 'cname', object: node('kname2'), revision: '2' } });
    expect(state.kubernetesNodesByCalicoName.get('cname')).toBe('kname2');
    applyInput(state, undefined, { kind: 'nodes', event: { type: 'deleted', key: 'cname', revision: '3' } });
    expect(state.kubernetesNodesByCalicoName.has('cname')).toBe(false);
    applyInput(state, undefined, { kind: 'nodes', event: { type: 'added', key: 'cname', object: node(), revision: '4' } });
    expect(state.kubernetesNodesByCalicoName.get('cname')).toBe('');
    applyInput(state, undefined, { kind: 'nodes', event: { type: 'deleted', key: 'cname', revision: '5' } });
    expect(state.kubernetesNodesByCalicoName.size).toBe(0);
  });
});

describe('dirty-only scans at scale', () => {
  it('marks a pod deleted with a notification at once, and one deleted silently only on a full scan', async () => {
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/16', blockSize: 29 }], nodes: [], gc: { leakGracePeriodMs: HOUR } });
    for (let n = 0; n < 1000; n++) {
      const node = `node-${n}`;
      w.view.upsertNode(node);
      const base = n * 8;
      const cidr = `10.0.${Math.floor(base / 256)}.${base % 256}/29`;
      const allocations = [1, 2, 3, 4, 5].map((ordinal) => ({ ordinal, handle: `k8s-pod-network.c-${n}-${ordinal}`, attrs: { node, namespace: 'default', pod: `pod-${n}-${ordinal}` } }));
      const block = makeBlock({ cidr, host: node, allocations });
      const { revision: _revision, ...unversioned } = block;
      await w.ds.blocks.create(unversioned);
      for (const ordinal of [1, 2, 3, 4, 5]) {
        const ip = `10.0.${Math.floor((base + ordinal) / 256)}.${(base + ordinal) % 256}`;
        w.view.upsertPod({ name: `pod-${n}-${ordinal}`, namespace: 'default', nodeName: node, ips: [ip] });
      }
    }
    await w.pass({ full: true });
    const candidates = (): string[] =>
      [...w.gc.state.allocationsByNode.values()].flatMap((m) => [...m.values()]).filter((a) => a.isCandidateLeak()).map((a) => a.attrs['pod'] ?? '');
    expect(candidates()).toEqual([]);

    w.view.deletePod('default', 'pod-10-1');
    await w.gc.syncNow();
    expect(candidates()).toEqual(['pod-10-1']);

    w.view.deletePod('default', 'pod-20-2', { notify: false });
    await w.gc.syncNow();
    expect(candidates()).toEqual(['pod-10-1']);
    await w.gc.syncNow({ full: true });
    expect(candidates().sort()).toEqual(['pod-10-1', 'pod-20-2']);
    expect(await allocatedIPs(w.ds)).toHaveLength(5000);
  }, 60_000);
});
