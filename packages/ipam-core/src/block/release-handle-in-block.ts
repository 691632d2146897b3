import type { AllocationBlock } from '@ipamkit/models';
import { cloneBlock, formatReleasedAt, frozenAttribute, sanitizeHandle } from './block-state.js';
import { collectInPlace, type CooldownArgs } from './garbage-collect-cooldown.js';
import { addressOf } from './ordinals.js';

export interface ReleaseHandleInBlockArgs extends CooldownArgs {
  handleId: string;
  /** Only ordinals stamped with this number are released; others are skipped silently. */
  sequenceNumber?: bigint | undefined;
}

export interface ReleaseHandleInBlockResult {
  block: AllocationBlock;
  /** How many ordinals this call moved into cooldown. */
  count: number;
  released: string[];
  /** Whether the block must be written. */
  changed: boolean;
}

/**
 * Releases every allocation of a handle in this block (design/calico-ipam.md#releasing-inside-a-block "by handle"). Unlike
 * release by address, per-ordinal sequence numbers are not re-stamped and a mismatching sequence
 * number is skipped rather than rejected, as in Calico. Ordinals in cooldown never match (the
 * cooldown attribute has no handle). The cooldown GC runs in the same write.
 */
export function releaseHandleInBlock(block: AllocationBlock, args: ReleaseHandleInBlockArgs): ReleaseHandleInBlockResult {
  const handleId = sanitizeHandle(args.handleId);
  const matching = new Set<number>();
  block.attributes.forEach((attribute, index) => {
    if (attribute.releasedAt === undefined && sanitizeHandle(attribute.handleId) === handleId) matching.add(index);
  });
  const toRelease: number[] = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null || !matching.has(index)) return;
    const stored = block.sequenceNumberForAllocation[String(ordinal)] ?? 0n;
    if (args.sequenceNumber === undefined || args.sequenceNumber === stored) toRelease.push(ordinal);
  });
  const next = cloneBlock(block);
  if (toRelease.length > 0) {
    next.attributes.push(frozenAttribute({ releasedAt: formatReleasedAt(args.now) }));
    const cooldownIndex = next.attributes.length - 1;
    for (const ordinal of toRelease) next.allocations[ordinal] = cooldownIndex;
  }
  const gc = collectInPlace(next, args);
  const changed = toRelease.length > 0 || gc.changed;
  return {
    block: changed ? next : block,
    count: toRelease.length,
    released: toRelease.map((o) => addressOf(block, o)),
    changed,
  };
}
