import { AlreadyExistsError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { assignInBlock } from '../../src/block/take-named-address.js';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { AddressInUseError, AddressNotInBlockError, AffinityMismatchError } from '../../src/block/block-errors.js';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { blockViolations, snapshot } from './block-invariants.js';

const now = new Date('2026-08-22T13:33:20Z');
const nodeA = { type: 'host', host: 'node-a' } as const;
const fresh = () => newBlock({ cidr: '10.0.0.0/29', now, owner: nodeA });

describe('assignInBlock', () => {
  it('allocates the named address and removes it from wherever it sits in the FIFO', () => {
    const block = fresh();
    const before = snapshot(block);
    const { block: next, ordinal } = assignInBlock(block, { ip: '10.0.0.5', handleId: 'h', attrs: { pod: 'p' } });
    expect(ordinal).toBe(5);
    expect(next.unallocated).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(next.allocations[5]).toBe(0);
    expect(next.sequenceNumberForAllocation).toEqual({ 5: block.sequenceNumber });
    expect(block).toEqual(before);
    expect(blockViolations(next)).toEqual([]);
  });

  it('reports the existing handle when the address is taken', () => {
    const taken = assignInBlock(fresh(), { ip: '10.0.0.5', handleId: 'h1' }).block;
    let caught: unknown;
    try {
      assignInBlock(taken, { ip: '10.0.0.5', handleId: 'h2' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AddressInUseError);
    expect(caught).toBeInstanceOf(AlreadyExistsError);
    expect((caught as AddressInUseError).existingHandleId).toBe('h1');
    expect((caught as AddressInUseError).inCooldown).toBe(false);
  });

  it('refuses an address in cooldown', () => {
    const allocated = autoAssignInBlock(fresh(), { num: 1, handleId: 'h' }).block;
    const cooling = releaseInBlock(allocated, { releases: [{ address: '10.0.0.0' }], now, cooldownSeconds: 60 }).block;
    expect(() => assignInBlock(cooling, { ip: '10.0.0.0' })).toThrow(AddressInUseError);
    expect(() => assignInBlock(cooling, { ip: '10.0.0.0' })).toThrow('(in cooldown)');
  });

  it('refuses a host-reserved ordinal', () => {
    const block = newBlock({
      cidr: '10.0.0.0/29', now, hostReserved: { startOfBlock: 1, endOfBlock: 0, handle: WINDOWS_RESERVED_HANDLE, note: 'n' },
    });
    expect(() => assignInBlock(block, { ip: '10.0.0.0' })).toThrow(AddressInUseError);
  });

  it.each(['10.0.0.8', 'fd00::1', '9.255.255.255'])('rejects %s outside the block', (ip) => {
    expect(() => assignInBlock(fresh(), { ip })).toThrow(AddressNotInBlockError);
  });

  it('checks strict affinity before anything else', () => {
    expect(() => assignInBlock(fresh(), { ip: '10.0.0.1', requiredOwner: { type: 'host', host: 'node-b' } })).toThrow(AffinityMismatchError);
  });
});
