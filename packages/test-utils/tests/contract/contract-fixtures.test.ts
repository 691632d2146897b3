import { describe, expect, it } from 'vitest';
import { allocateFirst, BIG_SEQUENCE_NUMBER, content, sampleBlock } from '../../src/contract/contract-fixtures.js';

describe('contract fixtures', () => {
  it('builds an empty block whose free list covers every ordinal', () => {
    const b = sampleBlock('10.0.0.0/30');
    expect([b.allocations, b.unallocated, b.attributes]).toEqual([[null, null, null, null], [0, 1, 2, 3], []]);
  });

  it('allocates ordinal 0 at the current sequence number and advances it, beyond 2^53', () => {
    const b = allocateFirst({ ...sampleBlock('10.0.0.0/30'), sequenceNumber: BIG_SEQUENCE_NUMBER }, 'h');
    expect(b.allocations).toEqual([0, null, null, null]);
    expect(b.unallocated).toEqual([1, 2, 3]);
    expect(b.sequenceNumber).toBe(1779000000000000002n);
    expect(b.sequenceNumberForAllocation).toEqual({ '0': 1779000000000000001n });
  });

  it('strips revision and uid from a stored value', () => {
    expect(content({ name: 'x', revision: '5', uid: 'u' })).toEqual({ name: 'x' });
  });
});
