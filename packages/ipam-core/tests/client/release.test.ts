import { BadHandleError, BadSequenceNumberError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { partialReleaseResult, sequenceNumberFor } from '../../src/index.js';
import { assertConsistent, BACKENDS, bare, useBackends, world } from './fixtures.js';

useBackends();

const oneBlockPool = [{ name: 'small', cidr: '10.0.0.0/26', blockSize: 26 }];

describe.each(BACKENDS)('releasing on $name', (backend) => {
  it('rejects a stale sequence number after the address was reallocated (ABA) and keeps the new owner', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.assignIP({ ip: '10.0.0.7', hostname: 'node-a', handleId: 'first', intendedUse: 'Workload' });
    const seq = sequenceNumberFor(await ds.blocks.get('10.0.0.0/26'), '10.0.0.7');
    expect(seq).toBeTypeOf('bigint');
    const released = await ipam.releaseIPs([{ address: '10.0.0.7', handle: 'first', sequenceNumber: seq! }]);
    expect(released).toEqual({ unallocated: [], released: [{ address: '10.0.0.7', handle: 'first', sequenceNumber: seq }] });
    await ipam.assignIP({ ip: '10.0.0.7', hostname: 'node-a', handleId: 'second', intendedUse: 'Workload' });
    const stale = ipam.releaseIPs([{ address: '10.0.0.7', sequenceNumber: seq! }]);
    await expect(stale).rejects.toBeInstanceOf(BadSequenceNumberError);
    const err: unknown = await stale.catch((e: unknown) => e);
    expect(partialReleaseResult(err)).toEqual({ unallocated: [], released: [] });
    expect((await ipam.getAssignmentAttributes('10.0.0.7')).handleId).toBe('second');
    expect(await assertConsistent(ds)).toEqual({ allocated: 1, handles: 1 });
  });

  it('rejects a release naming the wrong handle and releases nothing in that block', async () => {
    const { ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.assignIP({ ip: '10.0.0.1', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await ipam.assignIP({ ip: '10.0.0.2', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await expect(ipam.releaseIPs([{ address: '10.0.0.1' }, { address: '10.0.0.2', handle: 'other' }])).rejects.toBeInstanceOf(BadHandleError);
    expect(await ipam.ipsByHandle('h')).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('treats an already released address as unallocated, not as an error', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    const ip = bare(ipv4?.ips[0] ?? '');
    await ipam.releaseIPs([{ address: ip }]);
    expect(await ipam.releaseIPs([{ address: ip }])).toEqual({ unallocated: [ip], released: [{ address: ip }] });
    await expect(ds.handles.get('h')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('keeps a released address out of use until the cooldown passes', async () => {
    const { ipam, clock } = await world(backend, { pools: oneBlockPool, config: { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 60 } });
    await ipam.autoAssign({ num4: 64, hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: '10.0.0.5' }]);
    clock.advance(30);
    expect((await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).ipv4?.ips).toEqual([]);
    await expect(ipam.getAssignmentAttributes('10.0.0.5')).rejects.toMatchObject({ name: 'IPInCooldownError' });
    clock.advance(31);
    expect((await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload' })).ipv4?.ips).toEqual(['10.0.0.5/26']);
  });

  it('hands out the longest-free address first (FIFO)', async () => {
    const { ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.autoAssign({ num4: 64, hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: '10.0.0.9' }]);
    await ipam.releaseIPs([{ address: '10.0.0.3' }]);
    await ipam.releaseIPs([{ address: '10.0.0.40' }]);
    const { ipv4 } = await ipam.autoAssign({ num4: 3, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv4?.ips).toEqual(['10.0.0.9/26', '10.0.0.3/26', '10.0.0.40/26']);
  });

  it('persists cold-IP garbage collection of a block', async () => {
    const { ds, ipam, clock } = await world(backend, { pools: oneBlockPool, config: { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 10 } });
    await ipam.autoAssign({ num4: 2, hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: '10.0.0.0' }]);
    const before = await ds.blocks.get('10.0.0.0/26');
    clock.advance(11);
    await ipam.garbageCollectColdIPs('10.0.0.0/26');
    const after = await ds.blocks.get('10.0.0.0/26');
    expect(after.allocations[0]).toBeNull();
    expect(after.unallocated.at(-1)).toBe(0);
    expect(after.sequenceNumber).toBe(before.sequenceNumber + 1n);
  });

  it('releases every address of a handle and deletes the handle', async () => {
    const { ds, ipam } = await world(backend, { pools: [{ name: 'p', cidr: '10.0.0.0/24', blockSize: 26 }] });
    await ipam.autoAssign({ num4: 70, hostname: 'node-a', handleId: 'many', intendedUse: 'Workload' });
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'other', intendedUse: 'Workload' });
    expect(await ipam.ipsByHandle('many')).toHaveLength(70);
    await ipam.releaseByHandle('many');
    await expect(ipam.ipsByHandle('many')).rejects.toBeInstanceOf(NotFoundError);
    await expect(ipam.releaseByHandle('many')).rejects.toBeInstanceOf(NotFoundError);
    expect(await assertConsistent(ds)).toEqual({ allocated: 1, handles: 1 });
  });

  it('releases an address whose pool was deleted by finding its block', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.assignIP({ ip: '10.0.0.4', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await ds.ipPools.delete('small');
    expect(await ipam.releaseIPs([{ address: '10.0.0.4' }, { address: '192.168.0.1' }])).toEqual({
      unallocated: ['192.168.0.1'],
      released: [{ address: '10.0.0.4' }],
    });
    expect(await assertConsistent(ds)).toEqual({ allocated: 0, handles: 0 });
  });

  it('deletes an unaffine block once its last address is released', async () => {
    const { ds, ipam } = await world(backend, { pools: oneBlockPool });
    await ipam.assignIP({ ip: '10.0.0.4', hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseAffinity('10.0.0.0/26', 'node-a', false);
    expect((await ds.blocks.get('10.0.0.0/26')).affinity).toBeUndefined();
    await ipam.releaseIPs([{ address: '10.0.0.4' }]);
    expect(await ds.blocks.list()).toEqual([]);
  });

  it('rejects an unparsable address before touching anything', async () => {
    const { ipam } = await world(backend, { pools: oneBlockPool });
    await expect(ipam.releaseIPs([{ address: 'not-an-ip' }])).rejects.toMatchObject({ name: 'ValidationError' });
  });
});

describe('releaseIPs results', () => {
  it('reports the options as the caller wrote them', async () => {
    const { ipam } = await world(BACKENDS[0]!, { pools: [{ name: 'v6', cidr: 'fd00::/120', blockSize: 122 }] });
    await ipam.assignIP({ ip: 'fd00::5', hostname: 'node-a', intendedUse: 'Workload' });
    const written = { address: 'FD00:0:0::5' };
    expect(await ipam.releaseIPs([written])).toEqual({ unallocated: [], released: [written] });
  });
});
