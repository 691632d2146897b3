import { BlockLimitError, NoQualifiedPoolError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { partialAutoAssignResult } from '../../src/index.js';
import { assertConsistent, BACKENDS, bare, strictConfig, useBackends, world } from './fixtures.js';

useBackends();

const oneBlockPool = [{ name: 'small', cidr: '10.0.0.0/26', blockSize: 26 }];

describe.each(BACKENDS)('autoAssign policy on $name', (backend) => {
  it('does not borrow under strict affinity and says why', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool, config: strictConfig });
    await ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual([]);
    expect(ipv4?.msgs).toEqual(['No more free affine blocks and strict affinity enabled']);
    expect((await ds.affinities.list({ host: 'node-a' })).length).toBe(0);
  });

  it('borrows from another host block when strict affinity is off', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'borrowed', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.1/26']);
    const [block] = await ds.blocks.list();
    expect(block?.affinity).toEqual({ type: 'host', host: 'node-b' });
    expect(await assertConsistent(ds)).toEqual({ allocated: 2, handles: 1 });
  });

  it('stops at the block cap with BlockLimitError, keeping what it assigned, and does not borrow', async () => {
    const { ds, ipam } = await world(backend, { config: { ...strictConfig, maxBlocksPerHost: 1 } });
    await ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' });
    const err: unknown = await ipam.autoAssign({ num4: 65, hostname: 'node-a', handleId: 'big', intendedUse: 'Workload' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockLimitError);
    const partial = partialAutoAssignResult(err);
    expect(partial?.ipv4?.ips).toHaveLength(64);
    expect(partial?.ipv4?.msgs).toEqual(['Need to allocate an IPAM block but could not - limit of 1 blocks reached for this node']);
    expect((await ds.handles.get('big')).block).toEqual({ [(await ds.affinities.list({ host: 'node-a' }))[0]!.cidr]: 64 });
  });

  it('applies the request cap even without strict affinity, still without borrowing', async () => {
    const { ipam } = await world(backend, { pools: [{ name: 'p', cidr: '10.0.0.0/25', blockSize: 26 }] });
    await ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' });
    await expect(ipam.autoAssign({ num4: 65, hostname: 'node-a', maxBlocksPerHost: 1, intendedUse: 'Workload' })).rejects.toBeInstanceOf(BlockLimitError);
  });

  it('never claims a block when autoAllocateBlocks is false', async () => {
    const { ds, ipam } = await world(backend, { config: { ...strictConfig, autoAllocateBlocks: false } });
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).rejects.toThrow('failed to find or claim a block');
    expect(await ds.blocks.list()).toEqual([]);
    await ipam.claimAffinity('10.0.0.128/26', { affinityType: 'host', host: 'node-a' });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.128/26']);
  });

  it('skips reserved addresses', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    await ds.ipReservations.create({ name: 'r', reservedCIDRs: ['10.0.0.0/30', '10.0.0.5'] });
    const { ipv4 } = await ipam.autoAssign({ num4: 3, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.4/26', '10.0.0.6/26', '10.0.0.7/26']);
  });

  it('picks pools by namespace selector', async () => {
    const { ipam } = await world(backend, {
      pools: [
        { name: 'red', cidr: '10.1.0.0/26', blockSize: 26, namespaceSelector: "team == 'red'" },
        { name: 'blue', cidr: '10.2.0.0/26', blockSize: 26, namespaceSelector: "team == 'blue'" },
      ],
    });
    const blue = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload', namespace: { name: 'ns', labels: { team: 'blue' } } });
    expect(blue.ipv4?.ips).toEqual(['10.2.0.0/26']);
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).rejects.toThrow('no configured Calico pools for node node-a');
  });

  it('picks pools by node selector', async () => {
    const { ipam } = await world(backend, {
      pools: [{ name: 'zone-a', cidr: '10.3.0.0/26', blockSize: 26, nodeSelector: "zone == 'a'" }],
      nodes: [{ name: 'node-a', labels: { zone: 'a' } }, { name: 'node-b' }],
    });
    expect((await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).ipv4?.ips).toEqual(['10.3.0.0/26']);
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' })).rejects.toThrow('no configured Calico pools for node node-b');
  });

  it('honours allowedUses', async () => {
    const { ipam } = await world(backend, {
      pools: [
        { name: 'tunnels', cidr: '10.4.0.0/26', blockSize: 26, allowedUses: ['Tunnel'] },
        { name: 'pods', cidr: '10.5.0.0/26', blockSize: 26 },
      ],
    });
    const tunnel = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Tunnel', ipv4Pools: ['10.4.0.0/26'] });
    expect(tunnel.ipv4?.ips).toEqual(['10.4.0.0/26']);
    const lb = ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'LoadBalancer' });
    await expect(lb).rejects.toBeInstanceOf(NoQualifiedPoolError);
    await expect(lb).rejects.toThrow('no pools match the required use (LoadBalancer)');
  });

  it('uses Manual pools only when requested', async () => {
    const { ipam } = await world(backend, { pools: [{ name: 'manual', cidr: '10.6.0.0/26', blockSize: 26, assignmentMode: 'Manual' }] });
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).rejects.toThrow('no configured Calico pools');
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload', ipv4Pools: ['10.6.0.0/26'] });
    expect(ipv4?.ips).toEqual(['10.6.0.0/26']);
  });

  it('returns the existing address of a handle at its per-family cap', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    const args = { num4: 1, hostname: 'node-a', handleId: 'vm', intendedUse: 'Workload', maxAllocToHandlePerIPVersion: 1 } as const;
    const first = await ipam.autoAssign(args);
    const again = await ipam.autoAssign(args);
    expect(first.ipv4?.ips).toEqual(['10.0.0.0/26']);
    expect(again.ipv4?.ips).toEqual(['10.0.0.0/32']);
    expect((await ds.handles.get('vm')).block).toEqual({ '10.0.0.0/26': 1 });
  });

  it('reserves Windows ordinals in new blocks and refuses pools too small for them', async () => {
    const rsvd = { startOfBlock: 3, endOfBlock: 1, handle: 'windows-reserved-ipam-handle', note: 'windows host rsvd' };
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload', hostReservedAttrIPv4s: rsvd });
    expect(ipv4?.ips).toEqual(['10.0.0.3/26']);
    const [block] = await ds.blocks.list();
    expect(block?.unallocated).toHaveLength(64 - 4 - 1);
    expect(block?.allocations[63]).toBe(0);
    const tiny = await world(backend, { pools: [{ name: 'tiny', cidr: '10.7.0.0/28', blockSize: 30 }] });
    await expect(tiny.ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload', hostReservedAttrIPv4s: rsvd })).rejects.toBeInstanceOf(NoQualifiedPoolError);
  });

  it('reclaims an empty block of another host only after a minute', async () => {
    const { ds, ipam, clock } = await world(backend, { pools: oneBlockPool, config: strictConfig });
    const b = await ipam.autoAssign({ num4: 1, hostname: 'node-b', handleId: 'b', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: bare(b.ipv4?.ips[0] ?? '') }]);
    const early = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(early.ipv4?.ips).toEqual([]);
    clock.advance(61);
    const late = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(late.ipv4?.ips).toEqual(['10.0.0.0/26']);
    expect((await ds.blocks.get('10.0.0.0/26')).affinity).toEqual({ type: 'host', host: 'node-a' });
    expect(await ds.affinities.list({ host: 'node-b' })).toEqual([]);
  });

  it('re-creates the block of an affinity whose block is missing', async () => {
    const { ds, ipam } = await world(backend);
    await ds.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.192/26', state: 'confirmed', deleted: false });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.192/26']);
    expect((await ds.blocks.get('10.0.0.192/26')).affinity).toEqual({ type: 'host', host: 'node-a' });
    expect((await ds.affinities.get({ host: 'node-a', type: 'host', cidr: '10.0.0.192/26' })).state).toBe('confirmed');
  });

  it('ignores soft-deleted blocks and affinities', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool, config: strictConfig });
    await ipam.autoAssign({ num4: 1, hostname: 'node-b', intendedUse: 'Workload' });
    const block = await ds.blocks.get('10.0.0.0/26');
    await ds.blocks.update({ ...block, deleted: true });
    const affinity = await ds.affinities.get({ host: 'node-b', type: 'host', cidr: '10.0.0.0/26' });
    await ds.affinities.update({ ...affinity, deleted: true });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.0/26']);
    expect((await ds.blocks.get('10.0.0.0/26')).affinity).toEqual({ type: 'host', host: 'node-a' });
  });

  it('releases an empty affine block of a pool that no longer selects the node', async () => {
    const { ds, ipam } = await world(backend, {
      pools: [
        { name: 'old', cidr: '10.8.0.0/26', blockSize: 26, nodeSelector: "zone == 'a'" },
        { name: 'new', cidr: '10.9.0.0/26', blockSize: 26, nodeSelector: "zone == 'b'" },
      ],
      nodes: [{ name: 'node-a', labels: { zone: 'a' } }],
    });
    const first = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: bare(first.ipv4?.ips[0] ?? '') }]);
    const node = await ds.nodes.get('node-a');
    await ds.nodes.update({ ...node, labels: { zone: 'b' } });
    const second = await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' });
    expect(second.ipv4?.ips).toEqual(['10.9.0.0/26']);
    expect((await ds.affinities.list({ host: 'node-a' })).map((a) => a.cidr)).toEqual(['10.9.0.0/26']);
  });
});
