import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { garbageCollectCooldown } from '../../src/block/garbage-collect-cooldown.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { blockViolations, snapshot } from './block-invariants.js';

const t0 = new Date('2026-08-22T13:33:20.250Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** .0–.3 allocated; .2 released at t0, .0 released 10 s later (cooldown configured by the test). */
function cooling(cooldownSeconds: number) {
  const fresh = newBlock({ cidr: '10.0.0.0/29', now: t0 });
  const full = autoAssignInBlock(fresh, { num: 4, handleId: 'h' }).block;
  const first = releaseInBlock(full, { releases: [{ address: '10.0.0.2' }], now: t0, cooldownSeconds }).block;
  return releaseInBlock(first, { releases: [{ address: '10.0.0.0' }], now: at(10), cooldownSeconds }).block;
}

describe('garbageCollectCooldown', () => {
  it('rounds releasedAt up to the whole second so the cooldown is never shortened', () => {
    expect(cooling(60).attributes.map((a) => a.releasedAt)).toEqual([undefined, '2026-08-22T13:33:21Z', '2026-08-22T13:33:31Z']);
  });

  it.each([
    // seconds after t0, freed ordinals (ascending per pass), resulting FIFO
    [30, [], [4, 5, 6, 7]],
    [60, [], [4, 5, 6, 7]],
    [60.75, [2], [4, 5, 6, 7, 2]],
    [70.75, [0, 2], [4, 5, 6, 7, 0, 2]],
  ] as const)('with a 60 s cooldown at t0+%ss frees %j', (seconds, freed, unallocated) => {
    const block = cooling(60);
    const before = snapshot(block);
    const result = garbageCollectCooldown(block, { cooldownSeconds: 60, now: at(seconds) });
    expect(result.freed).toEqual(freed);
    expect(result.changed).toBe(freed.length > 0);
    expect(result.block.unallocated).toEqual(unallocated);
    expect(block).toEqual(before);
    expect(blockViolations(result.block)).toEqual([]);
  });

  it('drops the cooldown attribute once its last ordinal is free and renumbers allocations', () => {
    const result = garbageCollectCooldown(cooling(60), { cooldownSeconds: 60, now: at(61) });
    expect(result.block.attributes).toEqual([{ handleId: 'h' }, { releasedAt: '2026-08-22T13:33:31Z' }]);
    expect(result.block.allocations.slice(0, 4)).toEqual([1, 0, null, 0]);
    expect(Object.keys(result.block.sequenceNumberForAllocation).sort()).toEqual(['0', '1', '3']);
  });

  it.each([0, -5])('frees everything released when the cooldown is %d', (cooldownSeconds) => {
    const block = cooling(3600);
    expect(garbageCollectCooldown(block, { cooldownSeconds, now: t0 }).freed).toEqual([0, 2]);
  });

  it('treats an unreadable releasedAt as infinitely old', () => {
    const block = structuredClone(cooling(3600));
    block.attributes[1] = { releasedAt: 'not a time' };
    expect(garbageCollectCooldown(block, { cooldownSeconds: 3600, now: t0 }).freed).toEqual([2]);
  });

  it('removes attributes nothing points at even when no ordinal is freed', () => {
    const block = structuredClone(newBlock({ cidr: '10.0.0.0/30', now: t0 }));
    block.attributes.push({ handleId: 'stray' });
    const result = garbageCollectCooldown(block, { cooldownSeconds: 0, now: t0 });
    expect(result.changed).toBe(true);
    expect(result.block.attributes).toEqual([]);
  });

  it('hands out the longest-free addresses first once cooled-down ones rejoin the FIFO', () => {
    const freed = garbageCollectCooldown(cooling(60), { cooldownSeconds: 60, now: at(80) }).block;
    expect(autoAssignInBlock(freed, { num: 6 }).ips).toEqual(['10.0.0.4', '10.0.0.5', '10.0.0.6', '10.0.0.7', '10.0.0.0', '10.0.0.2']);
    expect(autoAssignInBlock(cooling(60), { num: 6 }).ips).toEqual(['10.0.0.4', '10.0.0.5', '10.0.0.6', '10.0.0.7']);
  });

  it('returns the same block when nothing changes', () => {
    const block = cooling(60);
    expect(garbageCollectCooldown(block, { cooldownSeconds: 60, now: t0 }).block).toBe(block);
  });
});
