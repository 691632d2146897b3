import { describe, expect, it } from 'vitest';
import { outOfRoom, type OutOfRoomLimit } from '../../src/foresight/out-of-room.js';

// design/ipam-core.md, "AutoAssign": the planner and `ipam explain --node` word these alike.
describe('outOfRoom', () => {
  const cases: [OutOfRoomLimit, string][] = [
    ['block-limit', 'no free address in affine blocks, block cap reached (3 of 3); AutoAssign does not borrow at the cap'],
    ['auto-allocate-off', 'no free address in affine blocks, autoAllocateBlocks is off; AutoAssign does not borrow then'],
    ['strict-affinity', 'no free address in affine blocks, no unclaimed blocks left in the selecting pools; strict affinity forbids borrowing'],
    ['pools-exhausted', 'no free address in affine blocks, no unclaimed blocks left in the selecting pools; no free addresses to borrow'],
  ];
  it.each(cases)('%s', (limit, reason) => {
    expect(outOfRoom(limit, 3, 3)).toEqual({ limit, reason });
  });
});
