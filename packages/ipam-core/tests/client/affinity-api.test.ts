import { BlockNotEmptyError, ValidationError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { InvalidSizeError } from '../../src/index.js';
import { assertConsistent, BACKENDS, useBackends, world } from './fixtures.js';

useBackends();

const host = (h: string) => ({ affinityType: 'host', host: h }) as const;

describe.each(BACKENDS)('affinity APIs on $name', (backend) => {
  it('claims every block of a range, and reports blocks owned by others as failed', async () => {
    const { ds, ipam } = await world(backend);
    expect(await ipam.claimAffinity('10.0.0.0/25', host('node-a'))).toEqual({ claimed: ['10.0.0.0/26', '10.0.0.64/26'], failed: [] });
    expect(await ipam.claimAffinity('10.0.0.0/25', host('node-b'))).toEqual({ claimed: [], failed: ['10.0.0.0/26', '10.0.0.64/26'] });
    expect(await ds.affinities.list({ host: 'node-b' })).toEqual([]);
    await expect(ipam.claimAffinity('10.0.0.0/27', host('node-a'))).rejects.toBeInstanceOf(InvalidSizeError);
    await expect(ipam.claimAffinity('172.16.0.0/26', host('node-a'))).rejects.toThrow('is not within any configured pools');
  });

  it('treats mustBeEmpty as a hard precondition', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.assignIP({ ip: '10.0.0.3', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await expect(ipam.releaseAffinity('10.0.0.0/26', 'node-a', true)).rejects.toBeInstanceOf(BlockNotEmptyError);
    const block = await ds.blocks.get('10.0.0.0/26');
    expect(block.affinity).toEqual({ type: 'host', host: 'node-a' });
    await expect(ipam.releaseBlockAffinity(block, true)).rejects.toBeInstanceOf(BlockNotEmptyError);
    expect((await ds.affinities.get({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26' })).state).toBe('confirmed');
  });

  it('counts an address in cooldown as making the block non-empty', async () => {
    const { ds, ipam } = await world(backend, { config: { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 30 } });
    await ipam.assignIP({ ip: '10.0.0.3', hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.releaseIPs([{ address: '10.0.0.3' }]);
    await expect(ipam.releaseBlockAffinity(await ds.blocks.get('10.0.0.0/26'), true)).rejects.toBeInstanceOf(BlockNotEmptyError);
  });

  it('makes a non-empty block unaffine and deletes an empty one', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.claimAffinity('10.0.0.0/25', host('node-a'));
    await ipam.assignIP({ ip: '10.0.0.3', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await ipam.releaseHostAffinities(host('node-a'), false);
    expect(await ds.affinities.list({ host: 'node-a' })).toEqual([]);
    expect((await ds.blocks.list()).map((b) => [b.cidr, b.affinity])).toEqual([['10.0.0.0/26', undefined]]);
    expect(await assertConsistent(ds)).toEqual({ allocated: 1, handles: 1 });
  });

  it('removes a host: affinities go, addresses stay', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await ipam.removeIPAMHost(host('node-a'));
    expect(await ds.affinities.list({ host: 'node-a' })).toEqual([]);
    expect(await ipam.ipsByHandle('h')).toHaveLength(1);
  });

  it('releases every affinity of a pool', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.claimAffinity('10.0.0.0/26', host('node-a'));
    await ipam.claimAffinity('10.0.0.64/26', host('node-b'));
    await ipam.assignIP({ ip: '10.0.0.65', hostname: 'node-b', intendedUse: 'Workload' });
    await ipam.releasePoolAffinities('10.0.0.0/24');
    expect(await ds.affinities.list()).toEqual([]);
    expect((await ds.blocks.list()).map((b) => b.cidr)).toEqual(['10.0.0.64/26']);
  });

  it('ensures a block for a host, claiming one only when it has none', async () => {
    const { ds, ipam } = await world(backend);
    const rsvd = { startOfBlock: 3, endOfBlock: 1, handle: 'windows-reserved-ipam-handle', note: 'windows host rsvd' };
    const first = await ipam.ensureBlock({ hostname: 'node-a', hostReservedAttrIPv4s: rsvd });
    const again = await ipam.ensureBlock({ hostname: 'node-a', hostReservedAttrIPv4s: rsvd });
    expect(first.ipv4).toMatch(/^10\.0\.0\.(0|64|128|192)\/26$/);
    expect(again).toEqual(first);
    expect(await ipam.ensureBlock({ hostname: 'node-a' })).toEqual({});
    const block = await ds.blocks.get(first.ipv4 ?? '');
    expect(block.unallocated).toHaveLength(60);
  });

  it('needs a host name to release a block affinity', async () => {
    const { ipam } = await world(backend);
    await expect(ipam.releaseBlockAffinity({ cidr: '10.0.0.0/26', affinity: { type: 'host', host: '' }, allocations: [], unallocated: [], attributes: [], sequenceNumber: 0n, sequenceNumberForAllocation: {}, deleted: false }, false)).rejects.toBeInstanceOf(ValidationError);
  });
});
