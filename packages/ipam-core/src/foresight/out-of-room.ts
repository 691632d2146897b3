import type { PlannedFailure, RunwayLimit } from './planned-node.js';

/** The ways a node's next Workload address fails once its affine blocks are full. */
export type OutOfRoomLimit = Extract<RunwayLimit, 'block-limit' | 'auto-allocate-off' | 'strict-affinity' | 'pools-exhausted'>;

/**
 * Why the next address fails once the node's affine blocks are full, in AutoAssign's order
 * (design/ipam-core.md, "AutoAssign"): the cap and `autoAllocateBlocks` end it without borrowing;
 * with no unclaimed block left, strict affinity forbids borrowing, else nothing is left to borrow.
 * One wording for the planner and `ipam explain --node`, which must say what AutoAssign does.
 */
export function outOfRoom(limit: OutOfRoomLimit, owned: number, cap: number): PlannedFailure {
  const reasons: Record<OutOfRoomLimit, string> = {
    'block-limit': `block cap reached (${owned} of ${cap}); AutoAssign does not borrow at the cap`,
    'auto-allocate-off': 'autoAllocateBlocks is off; AutoAssign does not borrow then',
    'strict-affinity': 'no unclaimed blocks left in the selecting pools; strict affinity forbids borrowing',
    'pools-exhausted': 'no unclaimed blocks left in the selecting pools; no free addresses to borrow',
  };
  return { limit, reason: `no free address in affine blocks, ${reasons[limit]}` };
}
