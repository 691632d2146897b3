import { BadHandleError, BadSequenceNumberError, type AllocationBlock } from '@ipamkit/models';
import { cloneBlock, formatReleasedAt, frozenAttribute, sanitizeHandle } from './block-state.js';
import { collectInPlace, type CooldownArgs } from './garbage-collect-cooldown.js';
import { addressOf, ordinalOf } from './ordinals.js';

/** One address to release; the same shape as the client's `ReleaseOptions`. */
export interface BlockRelease {
  address: string;
  /** If non-empty, must equal the stored (sanitized) handle, else BadHandleError. */
  handle?: string | undefined;
  /** If given, must equal the ordinal's stored sequence number (missing = 0), else BadSequenceNumberError. */
  sequenceNumber?: bigint | undefined;
}

export interface ReleaseInBlockArgs extends CooldownArgs {
  releases: readonly BlockRelease[];
}

export interface ReleaseInBlockResult {
  block: AllocationBlock;
  /** Canonical addresses released by this call (now in cooldown, or already free if cooldown ≤ 0). */
  released: string[];
  /** Canonical addresses that were already free or in cooldown: not an error. */
  unallocated: string[];
  /** Released count per stored handle, for the handle decrements that follow the block write. */
  handleDeltas: Map<string, number>;
  /** Whether the block must be written (a release happened or the cooldown GC changed it). */
  changed: boolean;
}

/**
 * Releases addresses by address (design/calico-ipam.md#releasing-inside-a-block). All-or-nothing: a stale sequence number
 * (checked first) or a wrong handle throws BadSequenceNumberError / BadHandleError and nothing is
 * released. Released ordinals point at one new cooldown attribute `{releasedAt: now}` and are
 * re-stamped with the current block sequence number, so replaying the original allocation's number
 * fails; the cooldown GC then runs in the same write. Duplicate addresses: the last one wins.
 */
export function releaseInBlock(block: AllocationBlock, args: ReleaseInBlockArgs): ReleaseInBlockResult {
  const byOrdinal = new Map<number, BlockRelease>();
  for (const release of args.releases) {
    const ordinal = ordinalOf(block, release.address);
    byOrdinal.delete(ordinal);
    byOrdinal.set(ordinal, release);
  }
  const toRelease: number[] = [];
  const unallocated: string[] = [];
  const handleDeltas = new Map<string, number>();
  for (const [ordinal, release] of byOrdinal) {
    const address = addressOf(block, ordinal);
    if (release.sequenceNumber !== undefined) {
      const stored = block.sequenceNumberForAllocation[String(ordinal)] ?? 0n;
      if (stored !== release.sequenceNumber) throw new BadSequenceNumberError(release.sequenceNumber, stored, address);
    }
    const index = block.allocations[ordinal];
    const attribute = index === null || index === undefined ? undefined : block.attributes[index];
    if (attribute === undefined || attribute.releasedAt !== undefined) {
      unallocated.push(address);
      continue;
    }
    const stored = sanitizeHandle(attribute.handleId);
    const requested = sanitizeHandle(release.handle) ?? '';
    if (requested !== '' && requested !== (stored ?? '')) throw new BadHandleError(requested, stored, address);
    if (stored !== undefined && stored !== '') handleDeltas.set(stored, (handleDeltas.get(stored) ?? 0) + 1);
    toRelease.push(ordinal);
  }
  const next = cloneBlock(block);
  if (toRelease.length > 0) {
    next.attributes.push(frozenAttribute({ releasedAt: formatReleasedAt(args.now) }));
    const cooldownIndex = next.attributes.length - 1;
    for (const ordinal of toRelease) {
      next.allocations[ordinal] = cooldownIndex;
      next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
    }
  }
  const gc = collectInPlace(next, args);
  const changed = toRelease.length > 0 || gc.changed;
  return {
    block: changed ? next : block,
    released: toRelease.map((o) => addressOf(block, o)),
    unallocated,
    handleDeltas,
    changed,
  };
}
