import { tunnelHandleId } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { HOUR, SECOND, affinityHosts, allocatePodIP, allocatedIPs, gcWorld, useGcWorlds } from './harness.js';

useGcWorlds();

describe('leaks on a live node', () => {
  it('releases a pod-less allocation after the grace period and keeps the affinity', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    await w.pass();
    const a = [...w.gc.state.allocationsByNode.get('node-a')!.values()][0]!;
    expect(a.isCandidateLeak()).toBe(true);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.5']);
    w.clock.advanceMs(2 * SECOND);
    const result = await w.pass({ full: true });
    expect(result.released).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
    expect(await affinityHosts(w.ds)).toEqual(['node-a:10.0.0.0/26']);
  });

  it('keeps an allocation whose pod reports the address', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'web' });
    w.view.upsertPod({ name: 'web', namespace: 'default', nodeName: 'node-a', ips: ['10.0.0.5'] });
    await w.pass({ full: true });
    w.clock.advanceMs(10 * SECOND);
    const result = await w.pass({ full: true });
    expect(result.released).toBe(0);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.5']);
    expect(w.gc.state.confirmedLeaks.size).toBe(0);
  });

  it('releases nothing when the grace period is zero, and keeps the affinity', async () => {
    const w = await gcWorld({ gc: { leakGracePeriodMs: 0 } });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    const result = await w.pass({ full: true });
    expect(result.released).toBe(0);
    const a = [...w.gc.state.allocationsByNode.get('node-a')!.values()][0]!;
    expect(a.isCandidateLeak()).toBe(true);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.5']);
    expect(await affinityHosts(w.ds)).toEqual(['node-a:10.0.0.0/26']);
  });

  it('marks nothing on a live node when the grace period is unset', async () => {
    const w = await gcWorld({ gc: { leakGracePeriodMs: null } });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    await w.pass({ full: true });
    const a = [...w.gc.state.allocationsByNode.get('node-a')!.values()][0]!;
    expect(a.leakedAt).toBeUndefined();
  });

  it('never collects an allocation without pod or namespace attributes', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.9', node: 'node-a' });
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.9']);
  });

  it('collects an allocation whose pod reports a different address', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'web' });
    w.view.upsertPod({ name: 'web', namespace: 'default', nodeName: 'node-a', ips: ['10.0.0.77'] });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
  });

  it('keeps an allocation whose pod has no address yet', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'web' });
    w.view.upsertPod({ name: 'web', namespace: 'default', nodeName: 'node-a', ips: [] });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(0);
  });
});

describe('the handle rule', () => {
  it('holds a dual-stack handle while the pod still reports one family, then releases both', async () => {
    const w = await gcWorld({
      pools: [
        { name: 'v4', cidr: '10.0.0.0/24', blockSize: 26 },
        { name: 'v6', cidr: 'fd00::/120', blockSize: 122 },
      ],
    });
    const handle = await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'web' });
    await allocatePodIP(w, { ip: 'fd00::5', node: 'node-a', namespace: 'default', pod: 'web', handle });
    w.view.upsertPod({ name: 'web', namespace: 'default', nodeName: 'node-a', ips: ['10.0.0.5'] });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    const held = await w.pass({ full: true });
    expect(held.released).toBe(0);
    expect(held.workRemaining?.confirmedLeaks).toBe(1);
    expect([...w.gc.state.confirmedLeaks.values()].map((a) => a.ip)).toEqual(['fd00::5']);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.5', 'fd00::5']);

    w.view.deletePod('default', 'web');
    await w.pass();
    w.clock.advanceMs(2 * SECOND);
    const both = await w.pass({ full: true });
    expect(both.released).toBe(2);
    expect(await allocatedIPs(w.ds)).toEqual([]);
    expect(w.gc.state.allocationsByHandle.has(handle)).toBe(false);
  });
});

describe('deleted nodes', () => {
  it('releases the addresses and the host affinity of a node deleted with its pod', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'] });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-b', namespace: 'default', pod: 'web' });
    w.view.deleteNode('node-b');
    const result = await w.pass();
    expect(result.full).toBe(true);
    expect(result.released).toBe(1);
    expect(result.nodesReleased).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
    expect(await affinityHosts(w.ds)).toEqual([]);
    await w.gc.refresh();
    expect(w.gc.state.blocksByNode.has('node-b')).toBe(false);
  });

  it('waits for the pods of a deleted node, then releases handles and affinity together', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'], gc: { leakGracePeriodMs: HOUR } });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-b', namespace: 'default', pod: 'p1' });
    await allocatePodIP(w, { ip: '10.0.0.6', node: 'node-b', namespace: 'default', pod: 'p2' });
    w.view.upsertPod({ name: 'p1', namespace: 'default', nodeName: 'node-b', ips: ['10.0.0.5'] });
    w.view.upsertPod({ name: 'p2', namespace: 'default', nodeName: 'node-b', ips: ['10.0.0.6'] });
    w.view.deleteNode('node-b');
    await w.pass();
    for (const a of w.gc.state.allocationsByNode.get('node-b')!.values()) expect(a.leakedAt).toBeUndefined();
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.5', '10.0.0.6']);

    w.view.deletePod('default', 'p1');
    w.view.deletePod('default', 'p2');
    w.view.upsertNode('node-b');
    w.view.deleteNode('node-b');
    const result = await w.pass();
    expect(result.released).toBe(2);
    expect(await allocatedIPs(w.ds)).toEqual([]);
    expect(await affinityHosts(w.ds)).toEqual([]);
  });

  it('releases a tunnel address and the affinity of a never-existing node in one pass', async () => {
    const w = await gcWorld();
    await w.ipam.assignIP({
      ip: '10.0.0.1',
      hostname: 'ghost',
      handleId: tunnelHandleId('ipip', 'ghost'),
      attrs: { node: 'ghost', type: 'ipipTunnelAddress' },
      intendedUse: 'Tunnel',
    });
    const result = await w.pass({ full: true });
    expect(result.released).toBe(1);
    expect(result.nodesReleased).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
    expect(await affinityHosts(w.ds)).toEqual([]);
  });

  it('never collects tunnel addresses while their node exists', async () => {
    const w = await gcWorld();
    const tunnels = [
      ['10.0.0.1', 'ipip', 'ipipTunnelAddress'],
      ['10.0.0.2', 'vxlan', 'vxlanTunnelAddress'],
      ['10.0.0.3', 'wireguard', 'wireguardTunnelAddress'],
    ] as const;
    for (const [ip, type, attr] of tunnels) {
      await w.ipam.assignIP({ ip, hostname: 'node-a', handleId: tunnelHandleId(type, 'node-a'), attrs: { node: 'node-a', type: attr }, intendedUse: 'Tunnel' });
    }
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  });

  it('keeps a deleted node whose unknown-source allocation pins it', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'] });
    await allocatePodIP(w, { ip: '10.0.0.7', node: 'node-b' });
    w.view.deleteNode('node-b');
    const result = await w.pass();
    expect(result.nodesReleased).toBe(0);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.7']);
    expect(await affinityHosts(w.ds)).toEqual(['node-b:10.0.0.0/26']);
  });
});

describe('tunnel addresses recognised by handle', () => {
  it('treats a tunnel handle without a type attribute as a tunnel address of its node', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'] });
    await w.ipam.assignIP({ ip: '10.0.0.1', hostname: 'node-b', handleId: tunnelHandleId('vxlan-v6', 'node-b'), attrs: { node: 'node-b' }, intendedUse: 'Tunnel' });
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.1']);
    w.view.deleteNode('node-b');
    const result = await w.pass();
    expect(result.released).toBe(1);
    expect(await affinityHosts(w.ds)).toEqual([]);
  });
});
