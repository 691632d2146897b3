import type { AllocationBlock } from '@ipamkit/models';
import { cloneBlock, compactAttributes } from './block-state.js';

export interface CooldownArgs {
  /** `IPAMConfig.ipCooldownSeconds`; zero or negative frees released ordinals at once. */
  cooldownSeconds: number;
  now: Date;
}

function cooledDown(releasedAt: string, { cooldownSeconds, now }: CooldownArgs): boolean {
  if (cooldownSeconds <= 0) return true;
  const at = Date.parse(releasedAt);
  // An unreadable time is Go's zero time: infinitely old.
  if (Number.isNaN(at)) return true;
  return at + cooldownSeconds * 1000 <= now.getTime();
}

/**
 * In-place GC of a private clone (design/calico-ipam.md#cooldown): frees every ordinal whose cooldown is over,
 * in ascending ordinal order to the tail of the FIFO, deletes its per-ordinal sequence number, then
 * compacts attributes. Returns the freed ordinals and whether anything changed.
 */
export function collectInPlace(block: AllocationBlock, args: CooldownArgs): { freed: number[]; changed: boolean } {
  const freed: number[] = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null) return;
    const releasedAt = block.attributes[index]?.releasedAt;
    if (releasedAt === undefined || !cooledDown(releasedAt, args)) return;
    block.allocations[ordinal] = null;
    block.unallocated.push(ordinal);
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the wire map is keyed by ordinal
    delete block.sequenceNumberForAllocation[String(ordinal)];
    freed.push(ordinal);
  });
  const compacted = compactAttributes(block);
  return { freed, changed: freed.length > 0 || compacted };
}

/**
 * The cooldown garbage-collect step as a pure function: returns a new block in which released
 * ordinals older than `cooldownSeconds` are free again (appended to the FIFO tail) and unused
 * attributes are dropped. `changed` says whether the result must be written back; the caller's
 * write path bumps `sequenceNumber` (this function does not).
 */
export function garbageCollectCooldown(
  block: AllocationBlock,
  args: CooldownArgs,
): { block: AllocationBlock; changed: boolean; freed: number[] } {
  // The steady state of every allocation: nothing to collect, so no clone (design/ipam-core.md,
  // "Allocation cost: the third round (2026-12-01)").
  if (!anythingToCollect(block, args)) return { block, changed: false, freed: [] };
  const next = cloneBlock(block);
  const { freed, changed } = collectInPlace(next, args);
  return changed ? { block: next, changed, freed } : { block, changed, freed };
}

/**
 * Whether `collectInPlace` would change `block`: an ordinal whose cooldown is over, or an attribute
 * no ordinal refers to (compaction drops it). False means the collect step returns `block` as is.
 */
function anythingToCollect(block: AllocationBlock, args: CooldownArgs): boolean {
  const attributes = block.attributes;
  const used = new Array<boolean>(attributes.length).fill(false);
  let usedCount = 0;
  for (const index of block.allocations) {
    if (index === null) continue;
    const releasedAt = attributes[index]?.releasedAt;
    if (releasedAt !== undefined && cooledDown(releasedAt, args)) return true;
    if (index >= 0 && index < attributes.length && used[index] === false) {
      used[index] = true;
      usedCount++;
    }
  }
  return usedCount !== attributes.length;
}
