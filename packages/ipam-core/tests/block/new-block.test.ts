import { describe, expect, it } from 'vitest';
import { InvalidBlockArgumentError } from '../../src/block/block-errors.js';
import { isEmpty, numFree } from '../../src/block/block-queries.js';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { blockViolations } from './block-invariants.js';

const now = new Date('2026-08-22T13:33:20.500Z');
const windows = { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' };

describe('newBlock', () => {
  it('starts with every ordinal free in ascending order and a nanosecond sequence number', () => {
    const block = newBlock({ cidr: '10.0.0.64/28', now, owner: { type: 'host', host: 'node-a' } });
    expect(block).toEqual({
      cidr: '10.0.0.64/28',
      affinity: { type: 'host', host: 'node-a' },
      affinityClaimTime: '2026-08-22T13:33:20Z',
      allocations: new Array(16).fill(null),
      unallocated: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      attributes: [],
      sequenceNumber: 1787405600500000000n,
      sequenceNumberForAllocation: {},
      deleted: false,
    });
  });

  it('masks the CIDR and leaves an unaffine block without a claim time', () => {
    const block = newBlock({ cidr: 'fd00::1:5/122', now });
    expect(block.cidr).toBe('fd00::1:0/122');
    expect(block.affinity).toBeUndefined();
    expect(block.affinityClaimTime).toBeUndefined();
    expect(block.unallocated).toHaveLength(64);
  });

  it('pre-allocates host-reserved ordinals to one shared attribute without sequence numbers', () => {
    const block = newBlock({ cidr: '10.0.0.0/26', now, hostReserved: windows });
    expect(block.attributes).toEqual([{ handleId: WINDOWS_RESERVED_HANDLE, activeOwnerAttrs: { note: 'windows host rsvd' } }]);
    expect(block.allocations.slice(0, 4)).toEqual([0, 0, 0, null]);
    expect(block.allocations[63]).toBe(0);
    expect(block.unallocated[0]).toBe(3);
    expect(block.unallocated.at(-1)).toBe(62);
    expect(numFree(block)).toBe(60);
    expect(block.sequenceNumberForAllocation).toEqual({});
    expect(isEmpty(block)).toBe(true);
    expect(blockViolations(block)).toEqual([]);
  });

  it('uses the explicit claim time when given', () => {
    const block = newBlock({ cidr: '10.0.0.0/30', now, owner: { type: 'virtual', host: 'load-balancer' }, claimTime: new Date('2026-01-01T00:00:00Z') });
    expect(block.affinityClaimTime).toBe('2026-01-01T00:00:00Z');
  });

  it.each([
    [{ ...windows, startOfBlock: -1 }],
    [{ ...windows, startOfBlock: 2, endOfBlock: 3 }],
    [{ ...windows, endOfBlock: 1.5 }],
  ])('rejects host-reserved sizes that do not fit a /30: %o', (hostReserved) => {
    expect(() => newBlock({ cidr: '10.0.0.0/30', now, hostReserved })).toThrow(InvalidBlockArgumentError);
  });

  it('rejects a CIDR too large to hold as a block', () => {
    expect(() => newBlock({ cidr: '10.0.0.0/8', now })).toThrow(InvalidBlockArgumentError);
  });
});
