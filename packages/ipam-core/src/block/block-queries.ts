import { IPInCooldownError, NotFoundError, type AllocationAttribute, type AllocationBlock, type BlockOrdinals } from '@ipamkit/models';
import type { ReservationFilter } from '../reservations/reservation-filter.js';
import { sanitizeHandle } from './block-state.js';
import { WINDOWS_RESERVED_HANDLE } from './host-reserved-attr.js';
import { addressOf, blockRange, ordinalOf } from './ordinals.js';
import { hasShortAllocations } from './short-block.js';

/**
 * The emptiness rule (design/calico-ipam.md#predicates): true iff every allocation belongs to the Windows
 * host-reserved handle (compared case-insensitively). An ordinal in cooldown makes it non-empty.
 */
export function isEmpty(block: AllocationBlock): boolean {
  return block.allocations.every((index) => {
    if (index === null) return true;
    return block.attributes[index]?.handleId?.toLowerCase() === WINDOWS_RESERVED_HANDLE;
  });
}

/**
 * Free ordinals that can be handed out (design/calico-ipam.md#predicates NumFreeAddresses): 0 when reservations
 * cover the whole block, the unreserved FIFO entries when they cover part of it.
 */
export function numFree(block: AllocationBlock, reservations?: ReservationFilter): number {
  // A short allocations array is a corrupt block: nothing in it is free to hand out.
  if (hasShortAllocations(block)) return 0;
  if (reservations === undefined) return block.unallocated.length;
  const range = blockRange(block);
  const reserved = reservations.countIn(block.cidr);
  if (reserved === 0n) return block.unallocated.length;
  if (reserved === range.size) return 0;
  return block.unallocated.filter((o) => !reservations.matchesValue(range.version, range.base + BigInt(o))).length;
}

/**
 * N − free: counts allocations, cooldown and host-reserved ordinals (the utilization InUse). For a
 * block with a short allocations array, the entries it does record.
 */
export function inUseCount(block: BlockOrdinals): number {
  if (hasShortAllocations(block)) return block.allocations.filter((index) => index !== null).length;
  return block.allocations.length - block.unallocated.length;
}

/** Addresses whose attribute's sanitized handle is `handleId`, in ordinal order (cooldown excluded). */
export function ipsForHandle(block: AllocationBlock, handleId: string): string[] {
  const wanted = sanitizeHandle(handleId);
  const out: string[] = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null) return;
    const attribute = block.attributes[index];
    if (attribute?.releasedAt === undefined && sanitizeHandle(attribute?.handleId) === wanted) {
      out.push(addressOf(block, ordinal));
    }
  });
  return out;
}

/** What is known about one address of the block. */
export type AddressState =
  | { state: 'free' }
  | { state: 'cooldown'; releasedAt: string }
  | { state: 'allocated'; handleId?: string };

export function addressState(block: AllocationBlock, ip: string): AddressState {
  const index = block.allocations[ordinalOf(block, ip)];
  if (index === null || index === undefined) return { state: 'free' };
  const attribute = block.attributes[index];
  if (attribute?.releasedAt !== undefined) return { state: 'cooldown', releasedAt: attribute.releasedAt };
  const handleId = sanitizeHandle(attribute?.handleId);
  return handleId === undefined ? { state: 'allocated' } : { state: 'allocated', handleId };
}

/**
 * The allocation's attribute for GetAssignmentAttributes (design/calico-ipam.md#predicates): a copy with the handle
 * sanitized and no `releasedAt`. Throws NotFoundError when unassigned, IPInCooldownError in cooldown.
 */
export function attributesFor(block: AllocationBlock, ip: string): AllocationAttribute {
  const index = block.allocations[ordinalOf(block, ip)];
  if (index === null || index === undefined) throw new NotFoundError(ip, `IP ${ip} is unassigned`);
  const attribute = block.attributes[index];
  if (attribute === undefined) throw new NotFoundError(ip, `IP ${ip} points at a missing attribute`);
  if (attribute.releasedAt !== undefined) throw new IPInCooldownError(ip);
  const out: AllocationAttribute = {};
  const handleId = sanitizeHandle(attribute.handleId);
  if (handleId !== undefined) out.handleId = handleId;
  if (attribute.activeOwnerAttrs !== undefined) out.activeOwnerAttrs = { ...attribute.activeOwnerAttrs };
  if (attribute.alternateOwnerAttrs !== undefined) out.alternateOwnerAttrs = { ...attribute.alternateOwnerAttrs };
  return out;
}

/**
 * The per-ordinal sequence number callers pass in `ReleaseOptions.sequenceNumber` for a race-free
 * release; undefined when none is stored (a release then compares against 0).
 */
export function sequenceNumberFor(block: AllocationBlock, ip: string): bigint | undefined {
  return block.sequenceNumberForAllocation[String(ordinalOf(block, ip))];
}
