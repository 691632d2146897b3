import { MaxAllocReachedError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { HandleCountError, HandleMaxAllocReachedError, decrementHandleCount, handleCountForFamily, incrementHandleCount } from '../../src/block/handle-counts.js';

const handle = { handleId: 'H', block: { '10.0.0.0/26': 2, 'fd00::/122': 1 }, deleted: false };

describe('incrementHandleCount', () => {
  it('starts a missing handle and adds to an existing block entry', () => {
    expect(incrementHandleCount({ handle: undefined, handleId: 'h', blockCidr: '10.0.0.0/26', num: 2 })).toEqual({
      handleId: 'h', block: { '10.0.0.0/26': 2 }, deleted: false,
    });
    expect(incrementHandleCount({ handle, handleId: 'H', blockCidr: '10.0.0.0/26', num: 1 }).block).toEqual({
      '10.0.0.0/26': 3, 'fd00::/122': 1,
    });
    expect(handle.block['10.0.0.0/26']).toBe(2);
  });

  it.each([
    ['IPv4 at the cap', '10.0.0.64/26', 1, 2, true],
    ['IPv4 under the cap', '10.0.0.64/26', 1, 3, false],
    ['IPv6 counted separately', 'fd00::40/122', 1, 2, false],
    ['no cap', '10.0.0.64/26', 100, 0, false],
  ])('enforces the per-family cap: %s', (_name, blockCidr, num, maxAllocPerIPVersion, rejects) => {
    const run = () => incrementHandleCount({ handle, handleId: 'H', blockCidr, num, maxAllocPerIPVersion });
    if (!rejects) {
      expect(run().block[blockCidr]).toBe(num);
      return;
    }
    expect(run).toThrow(MaxAllocReachedError);
    try {
      run();
    } catch (err) {
      expect(err).toMatchObject({ handleId: 'H', currentCount: 2, maxAlloc: maxAllocPerIPVersion });
      expect(err).toBeInstanceOf(HandleMaxAllocReachedError);
    }
  });

  it('counts per family by the colon in the block key', () => {
    expect(handleCountForFamily(handle, 4)).toBe(2);
    expect(handleCountForFamily(handle, 6)).toBe(1);
  });
});

describe('decrementHandleCount', () => {
  it('subtracts and removes entries that reach zero', () => {
    expect(decrementHandleCount({ handle, blockCidr: '10.0.0.0/26', num: 1 }).block).toEqual({ '10.0.0.0/26': 1, 'fd00::/122': 1 });
    expect(decrementHandleCount({ handle, blockCidr: 'fd00::/122', num: 1 }).block).toEqual({ '10.0.0.0/26': 2 });
  });

  it.each([
    ['an unlinked block', '10.9.0.0/26', 1],
    ['an underflow', '10.0.0.0/26', 3],
  ])('rejects %s', (_name, blockCidr, num) => {
    expect(() => decrementHandleCount({ handle, blockCidr, num })).toThrow(HandleCountError);
  });
});
