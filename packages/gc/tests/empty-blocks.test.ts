import type { AllocationBlock, Datastore } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { HOUR, SECOND, affinityHosts, allocatePodIP, gcWorld, useGcWorlds, type GcWorld } from './harness.js';

useGcWorlds();

/** Claims `cidr` for `host` through the core (an empty, affine block). */
async function claim(w: GcWorld, cidr: string, host = 'node-a'): Promise<void> {
  const { claimed } = await w.ipam.claimAffinity(cidr, { affinityType: 'host', host });
  expect(claimed).toEqual([cidr]);
}

async function blockCidrs(ds: Datastore): Promise<string[]> {
  return (await ds.blocks.list()).map((b: AllocationBlock) => b.cidr).sort();
}

/** Two observations more than the grace apart release an empty block. */
async function passTwice(w: GcWorld): Promise<void> {
  await w.pass({ full: true });
  w.clock.advanceMs(2 * SECOND);
  await w.pass({ full: true });
}

describe('empty-block release', () => {
  it('releases an empty second block and keeps the used one', async () => {
    const w = await gcWorld();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    await claim(w, '10.0.0.64/26');
    await passTwice(w);
    expect(await blockCidrs(w.ds)).toEqual(['10.0.0.0/26']);
    expect(await affinityHosts(w.ds)).toEqual(['node-a:10.0.0.0/26']);
  });

  it('releases an empty second block when the used block is full', async () => {
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/24', blockSize: 30 }] });
    for (const ip of ['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3']) await allocatePodIP(w, { ip, node: 'node-a' });
    await claim(w, '10.0.0.4/30');
    await passTwice(w);
    expect(await blockCidrs(w.ds)).toEqual(['10.0.0.0/30']);
  });

  it('keeps exactly one of five empty blocks on a node', async () => {
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/16', blockSize: 24 }] });
    for (let i = 0; i < 5; i++) await claim(w, `10.0.${i}.0/24`);
    await passTwice(w);
    expect((await blockCidrs(w.ds)).length).toBe(1);
    await w.gc.refresh();
    expect(w.gc.state.blocksByNode.get('node-a')?.size).toBe(1);
    expect(w.gc.state.emptyBlocks.size).toBe(1);
  });

  it('keeps exactly one of five empty /31 blocks on a node', async () => {
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/28', blockSize: 31 }] });
    for (let i = 0; i < 5; i++) await claim(w, `10.0.0.${2 * i}/31`);
    await passTwice(w);
    expect((await blockCidrs(w.ds)).length).toBe(1);
    await w.gc.refresh();
    expect(w.gc.state.blocksByNode.get('node-a')?.size).toBe(1);
  });

  it('does not release an empty block seen only once within the grace period', async () => {
    const w = await gcWorld({ gc: { leakGracePeriodMs: 5 * 60 * SECOND } });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    await claim(w, '10.0.0.64/26');
    await w.pass({ full: true });
    w.clock.advanceMs(3 * SECOND);
    await w.pass({ full: true });
    expect(await blockCidrs(w.ds)).toEqual(['10.0.0.0/26', '10.0.0.64/26']);
  });

  it('releases an empty block affine to a node that never existed on a full scan', async () => {
    const w = await gcWorld();
    await claim(w, '10.0.0.64/26', 'ghost');
    const result = await w.pass({ full: true });
    expect(result.nodesReleased).toBe(1);
    expect(await blockCidrs(w.ds)).toEqual([]);
  });

  it('holds the blocks of a node being migrated from Flannel', async () => {
    const w = await gcWorld();
    w.view.upsertNode('node-a', { 'projectcalico.org/node-network-during-migration': 'flannel' });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    await claim(w, '10.0.0.64/26');
    await passTwice(w);
    expect(await blockCidrs(w.ds)).toEqual(['10.0.0.0/26', '10.0.0.64/26']);
    expect(w.gc.state.blockReleaseTracker.size).toBe(0);
  });

  it('disables block release when the grace period is zero', async () => {
    const w = await gcWorld({ gc: { leakGracePeriodMs: 0 } });
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a' });
    await claim(w, '10.0.0.64/26');
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await blockCidrs(w.ds)).toEqual(['10.0.0.0/26', '10.0.0.64/26']);
  });
});
