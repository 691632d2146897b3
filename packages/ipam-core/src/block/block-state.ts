import { isoUtc, type AllocationAttribute, type AllocationBlock } from '@ipamkit/models';

// Internal helpers shared by the block operations. Every public operation clones first and then
// mutates only its private copy, so a block read from the datastore is never changed in place.
// Attribute objects are never changed in place either (an operation appends a new one or replaces
// the array), so a clone shares them (design/ipam-core.md, "Allocation cost: the fifth round
// (2026-12-02)"), and every attribute an operation makes is frozen with its owner maps, which lets
// the SQLite engine share it and reuse its text ("Allocation cost: the sixth round (2026-12-02)").

/** Cuts a handle at the first `\r` (repairs data from the old host-local migration bug). */
export function sanitizeHandle(handleId: string | undefined): string | undefined {
  if (handleId === undefined) return undefined;
  const cut = handleId.indexOf('\r');
  return cut < 0 ? handleId : handleId.slice(0, cut);
}

/** A copy whose arrays and maps are its own; it shares only the attribute objects, which no operation changes. */
export function cloneBlock(block: AllocationBlock): AllocationBlock {
  const copy: AllocationBlock = {
    cidr: block.cidr,
    allocations: [...block.allocations],
    unallocated: [...block.unallocated],
    attributes: [...block.attributes],
    sequenceNumber: block.sequenceNumber,
    sequenceNumberForAllocation: { ...block.sequenceNumberForAllocation },
    deleted: block.deleted,
  };
  if (block.affinity !== undefined) copy.affinity = { ...block.affinity };
  if (block.affinityClaimTime !== undefined) copy.affinityClaimTime = block.affinityClaimTime;
  return copy;
}

function isEmptyMap(map: Record<string, string> | undefined): boolean {
  return map === undefined || Object.keys(map).length === 0;
}

/** Empty and absent owner maps are equal: the wire format drops empty maps (`omitempty`). */
export function sameOwnerAttrs(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (isEmptyMap(a) || isEmptyMap(b)) return isEmptyMap(a) && isEmptyMap(b);
  const aKeys = Object.keys(a ?? {});
  if (aKeys.length !== Object.keys(b ?? {}).length) return false;
  return aKeys.every((k) => Object.hasOwn(b ?? {}, k) && b?.[k] === a?.[k]);
}

/**
 * Freezes a new attribute, its owner maps replaced by frozen copies (the maps may be a caller's or
 * an input block's): how every attribute an operation makes is stored.
 */
export function frozenAttribute(attribute: AllocationAttribute): AllocationAttribute {
  const { activeOwnerAttrs: active, alternateOwnerAttrs: alternate } = attribute;
  if (active !== undefined) attribute.activeOwnerAttrs = Object.freeze({ ...active });
  if (alternate !== undefined) attribute.alternateOwnerAttrs = Object.freeze({ ...alternate });
  return Object.freeze(attribute);
}

/** Builds a frozen attribute; an empty owner map is left out, as the wire format would. */
export function makeAttribute(handleId: string | undefined, attrs: Record<string, string> | undefined): AllocationAttribute {
  const attribute: AllocationAttribute = {};
  if (handleId !== undefined) attribute.handleId = handleId;
  if (attrs !== undefined && !isEmptyMap(attrs)) attribute.activeOwnerAttrs = attrs;
  return frozenAttribute(attribute);
}

/**
 * Index of an attribute equal to {handleId, attrs} with no alternate owner and no `releasedAt`,
 * appending one if none exists (design/calico-ipam.md#free-list-and-attributes). Mutates `block` (a private clone).
 */
export function findOrAddAttribute(block: AllocationBlock, handleId: string | undefined, attrs: Record<string, string> | undefined): number {
  const index = block.attributes.findIndex(
    (a) =>
      a.handleId === handleId &&
      a.releasedAt === undefined &&
      isEmptyMap(a.alternateOwnerAttrs) &&
      sameOwnerAttrs(a.activeOwnerAttrs, attrs),
  );
  if (index >= 0) return index;
  block.attributes.push(makeAttribute(handleId, attrs));
  return block.attributes.length - 1;
}

/**
 * Drops attributes no allocation points at and renumbers `allocations` (design/calico-ipam.md#cooldown step 3).
 * Mutates `block` (a private clone); returns whether anything was dropped. Every release runs it on
 * the block it writes, so the usual case (every index a whole number naming an attribute) is
 * counted and renumbered with arrays; any other index takes the general path (design/ipam-core.md,
 * "Allocation cost: the ninth round (2026-12-02)").
 */
export function compactAttributes(block: AllocationBlock): boolean {
  const attributes = block.attributes;
  const n = attributes.length;
  // -1: no ordinal refers to the attribute; then its new index once kept.
  const renumbered = new Array<number>(n).fill(-1);
  let usedCount = 0;
  for (const index of block.allocations) {
    if (index === null) continue;
    if (!Number.isInteger(index) || index < 0 || index >= n) return compactAttributesGenerally(block);
    if (renumbered[index] === -1) {
      renumbered[index] = 0;
      usedCount++;
    }
  }
  if (usedCount === n) return false;
  const kept: AllocationAttribute[] = [];
  attributes.forEach((attribute, index) => {
    if (renumbered[index] === -1) return;
    renumbered[index] = kept.length;
    kept.push(attribute);
  });
  block.attributes = kept;
  block.allocations = block.allocations.map((index) => (index === null ? null : (renumbered[index] ?? null)));
  return true;
}

/**
 * compactAttributes for allocations holding an index that names no attribute (a corrupt block): the
 * set-based formulation, which the fast path's tests take as their reference.
 */
export function compactAttributesGenerally(block: AllocationBlock): boolean {
  const used = new Set<number>();
  for (const index of block.allocations) if (index !== null) used.add(index);
  if (used.size === block.attributes.length && [...used].every((i) => i < block.attributes.length)) return false;
  const remap = new Map<number, number>();
  const kept: AllocationAttribute[] = [];
  block.attributes.forEach((attribute, index) => {
    if (!used.has(index)) return;
    remap.set(index, kept.length);
    kept.push(attribute);
  });
  const dropped = kept.length !== block.attributes.length;
  block.attributes = kept;
  block.allocations = block.allocations.map((index) => (index === null ? null : (remap.get(index) ?? null)));
  return dropped;
}

/** RFC 3339 in whole seconds, rounded down (the wire precision of affinityClaimTime). */
export function formatWholeSeconds(date: Date): string {
  return isoUtc(new Date(Math.floor(date.getTime() / 1000) * 1000)).replace('.000Z', 'Z');
}

/** The last `formatReleasedAt` answer, by the millisecond time it formatted. */
let lastReleasedAt: { readonly at: number; readonly text: string } = { at: Number.NaN, text: '' };

/**
 * `releasedAt` rounded **up** to the next whole second: the stored value then never makes a
 * cooldown shorter than asked (Calico truncates, which can shorten it by up to a second).
 */
export function formatReleasedAt(date: Date): string {
  const at = Math.ceil(date.getTime() / 1000) * 1000;
  // Releases come in runs within one second: the last second's text is kept (design/ipam-core.md,
  // "Allocation cost: the ninth round (2026-12-02)"). NaN never equals itself, so an invalid date
  // is formatted (and throws) as before.
  if (at === lastReleasedAt.at) return lastReleasedAt.text;
  const text = isoUtc(new Date(at)).replace('.000Z', 'Z');
  lastReleasedAt = { at, text };
  return text;
}

