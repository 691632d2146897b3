import { NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { newBlock } from '../../src/block/new-block.js';
import { BACKENDS, useBackends, world } from './fixtures.js';

useBackends();

// A claim killed between creating its pending affinity and confirming it leaves the affinity
// pending (design/ipam-core.md, "Pending affinities of a killed claim"); resolvePendingAffinities
// settles each one against its block.
const LB = { type: 'virtual' as const, host: 'load-balancer' };
const POOLS = [{ name: 'lb', cidr: '10.0.0.0/24', blockSize: 26 }];

describe.each(BACKENDS)('resolvePendingAffinities on $name', (backend) => {
  it('completes a claim that stopped before its block was written: block created, affinity confirmed', async () => {
    const w = await world(backend, { pools: POOLS });
    await w.ds.affinities.create({ ...LB, cidr: '10.0.0.0/26', state: 'pending', deleted: false });
    expect(await w.ipam.resolvePendingAffinities({ affinityType: 'virtual', host: 'load-balancer' })).toBe(1);
    expect((await w.ds.affinities.get({ ...LB, cidr: '10.0.0.0/26' })).state).toBe('confirmed');
    expect((await w.ds.blocks.get('10.0.0.0/26')).affinity).toEqual(LB);
  });

  it('confirms a pending affinity whose block already names the owner', async () => {
    const w = await world(backend, { pools: POOLS });
    await w.ds.blocks.create(newBlock({ cidr: '10.0.0.64/26', owner: LB, now: new Date(0) }));
    await w.ds.affinities.create({ ...LB, cidr: '10.0.0.64/26', state: 'pending', deleted: false });
    expect(await w.ipam.resolvePendingAffinities({ affinityType: 'virtual', host: 'load-balancer' })).toBe(1);
    expect((await w.ds.affinities.get({ ...LB, cidr: '10.0.0.64/26' })).state).toBe('confirmed');
  });

  it('deletes a pending affinity whose block belongs to someone else, and leaves confirmed ones and other owners alone', async () => {
    const w = await world(backend, { pools: POOLS });
    await w.ds.blocks.create(newBlock({ cidr: '10.0.0.128/26', owner: { type: 'host', host: 'node-a' }, now: new Date(0) }));
    await w.ds.affinities.create({ ...LB, cidr: '10.0.0.128/26', state: 'pending', deleted: false });
    await w.ds.blocks.create(newBlock({ cidr: '10.0.0.192/26', owner: LB, now: new Date(0) }));
    await w.ds.affinities.create({ ...LB, cidr: '10.0.0.192/26', state: 'confirmed', deleted: false });
    await w.ds.affinities.create({ type: 'host', host: 'node-b', cidr: '10.0.0.0/26', state: 'pending', deleted: false });
    expect(await w.ipam.resolvePendingAffinities({ affinityType: 'virtual', host: 'load-balancer' })).toBe(1);
    await expect(w.ds.affinities.get({ ...LB, cidr: '10.0.0.128/26' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await w.ds.blocks.get('10.0.0.128/26')).affinity).toEqual({ type: 'host', host: 'node-a' });
    expect((await w.ds.affinities.get({ ...LB, cidr: '10.0.0.192/26' })).state).toBe('confirmed');
    expect((await w.ds.affinities.get({ type: 'host', host: 'node-b', cidr: '10.0.0.0/26' })).state).toBe('pending');
  });
});
