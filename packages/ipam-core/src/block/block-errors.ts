import { AlreadyExistsError, ConflictError, ValidationError } from '@ipamkit/models';

/** An address or ordinal outside the block it was looked up in (design/calico-ipam.md#ordinals). */
export class AddressNotInBlockError extends ValidationError {
  override name = 'AddressNotInBlockError';
  constructor(readonly address: string, readonly cidr: string) {
    super(`IP ${address} not in block ${cidr}`);
  }
}

/**
 * The block's affinity is not the caller's while strict affinity is on (design/calico-ipam.md#assigning-inside-a-block
 * step 1, for the walk and for a named address). `actual` is undefined for an unaffine block.
 */
export class AffinityMismatchError extends ValidationError {
  override name = 'AffinityMismatchError';
  constructor(readonly cidr: string, readonly expected: string, readonly actual: string | undefined) {
    super(
      actual === undefined
        ? `Attempt to assign from block ${cidr} with no affinity (expected ${expected})`
        : `Block affinity (${actual}) does not match provided (${expected}) for block ${cidr}`,
    );
  }
}

/**
 * AssignIP named an address that is allocated, host-reserved or in cooldown (design/calico-ipam.md#assigning-inside-a-block,
 * a named address). `existingHandleId` lets the caller apply the idempotent-KubeVirt rule of design/calico-ipam.md#assignip.
 */
export class AddressInUseError extends AlreadyExistsError {
  override name = 'AddressInUseError';
  constructor(readonly address: string, readonly existingHandleId: string | undefined, readonly inCooldown: boolean) {
    super(address, `Address already assigned in block: ${address}${inCooldown ? ' (in cooldown)' : ''}`);
  }
}

/** An argument the pure block operations cannot act on (negative count, bad host-reserved sizes). */
export class InvalidBlockArgumentError extends ValidationError {
  override name = 'InvalidBlockArgumentError';
}

/**
 * A SetOwnerAttributes precondition did not hold (design/ipam-core.md, "Owner attributes"). Calico returns an update
 * conflict here and its callers treat it as one, so this is a ConflictError; its category is
 * stop-and-re-evaluate: the owner changed under the caller, who must re-read rather than repeat the
 * same call (design/ipam-core.md, "Owner attributes").
 */
export class OwnerPreconditionError extends ConflictError {
  override name = 'OwnerPreconditionError';
  override readonly category = 'stop-and-re-evaluate';
  constructor(readonly address: string, readonly field: 'activeOwnerAttrs' | 'alternateOwnerAttrs', detail: string) {
    super(address, `cannot set ${field} of ${address}: ${detail}`);
  }
}

/**
 * A stored block whose `allocations` array is shorter than the block (Calico's own test objects
 * hold such /26 blocks). It is kept as read, but never allocated from (design/ipam-core.md,
 * "Blocks with a short allocations array").
 */
export class CorruptBlockError extends ValidationError {
  override name = 'CorruptBlockError';
  constructor(readonly cidr: string, readonly entries: number, readonly size: bigint) {
    super(`block ${cidr} is corrupt: its allocations array has ${entries} entries for ${size} addresses, so it is not allocated from`);
  }
}
