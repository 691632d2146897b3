import { type AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { AffinityMismatchError, InvalidBlockArgumentError } from '../../src/block/block-errors.js';
import { numFree } from '../../src/block/block-queries.js';
import { newBlock } from '../../src/block/new-block.js';
import { createReservationFilter } from '../../src/reservations/reservation-filter.js';
import { blockViolations, snapshot } from './block-invariants.js';

const now = new Date('2026-08-22T13:33:20Z');
const nodeA = { type: 'host', host: 'node-a' } as const;
const fresh = (cidr = '10.0.0.0/29'): AllocationBlock => newBlock({ cidr, now, owner: nodeA });

describe('autoAssignInBlock', () => {
  it('takes addresses from the head of the FIFO and stamps them with the pre-write sequence number', () => {
    const block = fresh();
    const before = snapshot(block);
    const result = autoAssignInBlock(block, { num: 3, handleId: 'h1', attrs: { pod: 'p' } });
    expect(result.ips).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2']);
    expect(result.ipNets).toEqual(['10.0.0.0/29', '10.0.0.1/29', '10.0.0.2/29']);
    expect(result.block.unallocated).toEqual([3, 4, 5, 6, 7]);
    expect(result.block.allocations).toEqual([0, 0, 0, null, null, null, null, null]);
    expect(result.block.attributes).toEqual([{ handleId: 'h1', activeOwnerAttrs: { pod: 'p' } }]);
    const seq = block.sequenceNumber;
    expect(result.block.sequenceNumberForAllocation).toEqual({ 0: seq, 1: seq, 2: seq });
    expect(result.block.sequenceNumber).toBe(seq);
    expect(block).toEqual(before);
    expect(blockViolations(result.block)).toEqual([]);
  });

  it('shares one attribute between calls with the same handle and attributes', () => {
    const first = autoAssignInBlock(fresh(), { num: 1, handleId: 'h', attrs: { pod: 'p' } });
    const second = autoAssignInBlock(first.block, { num: 1, handleId: 'h', attrs: { pod: 'p' } });
    const third = autoAssignInBlock(second.block, { num: 1, handleId: 'h', attrs: { pod: 'q' } });
    expect(second.block.attributes).toHaveLength(1);
    expect(third.block.attributes).toHaveLength(2);
    expect(third.block.allocations.slice(0, 3)).toEqual([0, 0, 1]);
  });

  it('treats empty and absent owner attributes as the same entry', () => {
    const first = autoAssignInBlock(fresh(), { num: 1, handleId: 'h', attrs: {} });
    const second = autoAssignInBlock(first.block, { num: 1, handleId: 'h' });
    expect(second.block.attributes).toEqual([{ handleId: 'h' }]);
  });

  it('returns what is left when the block has fewer free addresses than asked', () => {
    const result = autoAssignInBlock(fresh('10.0.0.0/30'), { num: 10 });
    expect(result.ips).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(result.block.unallocated).toEqual([]);
  });

  it('returns the input block unchanged and no addresses when the block is full', () => {
    const full = autoAssignInBlock(fresh('10.0.0.0/30'), { num: 4 }).block;
    const result = autoAssignInBlock(full, { num: 1 });
    expect(result.ips).toEqual([]);
    expect(result.block).toBe(full);
  });

  it('skips reserved addresses and keeps them at the head of the FIFO in their order', () => {
    const reservations = createReservationFilter([{ name: 'r', reservedCIDRs: ['10.0.0.1', '10.0.0.4/31'] }]);
    const result = autoAssignInBlock(fresh(), { num: 4, reservations });
    expect(result.ips).toEqual(['10.0.0.0', '10.0.0.2', '10.0.0.3', '10.0.0.6']);
    expect(result.block.unallocated).toEqual([1, 4, 5, 7]);
    expect(numFree(result.block, reservations)).toBe(1);
  });

  it('allocates IPv6 /122 blocks', () => {
    const result = autoAssignInBlock(fresh('fd00::/122'), { num: 2, handleId: 'h6' });
    expect(result.ipNets).toEqual(['fd00::/122', 'fd00::1/122']);
    expect(result.block.unallocated).toHaveLength(62);
  });

  it.each([
    ['another host', { type: 'host', host: 'node-b' } as const, 'Block affinity (host:node-a) does not match provided (host:node-b)'],
    ['the virtual owner', { type: 'virtual', host: 'node-a' } as const, 'does not match provided (virtual:node-a)'],
  ])('refuses a block affine to %s under strict affinity', (_name, requiredOwner, message) => {
    expect(() => autoAssignInBlock(fresh(), { num: 1, requiredOwner })).toThrow(AffinityMismatchError);
    expect(() => autoAssignInBlock(fresh(), { num: 1, requiredOwner })).toThrow(message);
  });

  it('refuses an unaffine block under strict affinity and borrows it otherwise', () => {
    const unaffine = newBlock({ cidr: '10.0.0.0/30', now });
    expect(() => autoAssignInBlock(unaffine, { num: 1, requiredOwner: nodeA })).toThrow('with no affinity');
    expect(autoAssignInBlock(unaffine, { num: 1 }).ips).toEqual(['10.0.0.0']);
  });

  it('accepts its own block under strict affinity', () => {
    expect(autoAssignInBlock(fresh(), { num: 1, requiredOwner: nodeA }).ips).toEqual(['10.0.0.0']);
  });

  it.each([-1, 1.5, Number.NaN])('rejects a count of %d', (num) => {
    expect(() => autoAssignInBlock(fresh(), { num })).toThrow(InvalidBlockArgumentError);
  });
});
