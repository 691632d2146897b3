// Pure block logic (design/calico-ipam.md#block-algorithms). Every function returns new values and never mutates its
// input; none of them bumps the block `sequenceNumber` — the write path calls
// `bumpSequenceNumber` once before each `update` (design/calico-ipam.md#cross-cutting-mechanics), and not before `create`.
export {
  AddressInUseError,
  AddressNotInBlockError,
  AffinityMismatchError,
  CorruptBlockError,
  InvalidBlockArgumentError,
  OwnerPreconditionError,
} from './block-errors.js';
export { WINDOWS_RESERVED_HANDLE, type HostReservedAttr } from './host-reserved-attr.js';
export {
  InvalidAddressError,
  blockCidrForAddress,
  canonicalCidr,
  familyBits,
  formatAddress,
  formatCidr,
  parseAddress,
  parseCidr,
  type AddressFamily,
  type ParsedAddress,
  type ParsedCidr,
} from './ip-address.js';
export { MAX_BLOCK_ADDRESSES, addressOf, blockRange, blockSize, ordinalOf, withBlockPrefix } from './ordinals.js';
export { sanitizeHandle } from './block-state.js';
export { assertFullAllocations, hasShortAllocations } from './short-block.js';
export { affinityString, assertAffinity, hostOwnsBlock } from './block-owner.js';
export { newBlock, unixNanos, type NewBlockArgs } from './new-block.js';
export {
  autoAssignInBlock,
  type AutoAssignInBlockArgs,
  type AutoAssignInBlockResult,
} from './take-free-addresses.js';
export { assignInBlock, type AssignInBlockArgs } from './take-named-address.js';
export {
  releaseInBlock,
  type BlockRelease,
  type ReleaseInBlockArgs,
  type ReleaseInBlockResult,
} from './release-in-block.js';
export {
  releaseHandleInBlock,
  type ReleaseHandleInBlockArgs,
  type ReleaseHandleInBlockResult,
} from './release-handle-in-block.js';
export { garbageCollectCooldown, type CooldownArgs } from './garbage-collect-cooldown.js';
export {
  addressState,
  attributesFor,
  inUseCount,
  inUseIPs,
  ipsForHandle,
  isEmpty,
  numFree,
  numReserved,
  sequenceNumberFor,
  type AddressState,
} from './block-queries.js';
export {
  ownerMatches,
  setOwnerAttributesInBlock,
  validateOwnerAttributeUpdates,
  type AttributeOwner,
  type OwnerAttributePreconditions,
  type OwnerAttributeUpdates,
  type SetOwnerAttributesInBlockArgs,
} from './set-owner-attributes-in-block.js';
export { bumpSequenceNumber, clearAffinity, withAffinity } from './block-writes.js';
export {
  HandleCountError,
  HandleMaxAllocReachedError,
  decrementHandleCount,
  handleCountForFamily,
  incrementHandleCount,
  type IncrementHandleArgs,
} from './handle-counts.js';
