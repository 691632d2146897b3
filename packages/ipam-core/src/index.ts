// The public API of @ipamkit/ipam-core, named one export at a time (design/ipam-core.md, "Public surface"):
// the IPAM client and its types, its errors, and the block queries callers read blocks with.
// Block logic, retries' internals and bench helpers stay internal; tests import them by path.
export {
  AddressInUseError,
  AddressNotInBlockError,
  AffinityMismatchError,
  CorruptBlockError,
  InvalidBlockArgumentError,
  OwnerPreconditionError,
} from './block/block-errors.js';
export { addressState, type AddressState, ipsForHandle, isEmpty, numFree, sequenceNumberFor } from './block/block-queries.js';
export { HandleCountError, HandleMaxAllocReachedError } from './block/handle-counts.js';
export { type HostReservedAttr } from './block/host-reserved-attr.js';
export { InvalidAddressError } from './block/ip-address.js';
export { addressOf, blockSize, ordinalOf } from './block/ordinals.js';
export { type AttributeOwner, type OwnerAttributePreconditions, type OwnerAttributeUpdates } from './block/set-owner-attributes-in-block.js';
export { hasShortAllocations } from './block/short-block.js';
export { blockCap } from './client/auto-assign.js';
export { createVMHandleId, ensureActiveVMOwnerAttrs, VM_OWNER_SWAP_RETRIES } from './client/kubevirt.js';
export {
  AlternateOwnerEmptyError,
  AlternateOwnerMismatchError,
  BlockChangedError,
  BlockClaimConflictError,
  BlockFilledError,
  InsufficientIPsByHandleError,
  InvalidSizeError,
  MaxRetriesError,
  NoFreeBlocksError,
  StaleAffinityError,
} from './client/client-errors.js';
export {
  type AffinityConfig,
  type AssignIPArgs,
  type AssignIPResult,
  type AssignmentAttributes,
  type AutoAssignArgs,
  type ReadAheadArgs,
  type BlockArgs,
  type Clock,
  type CreateIpamClientOptions,
  type IPAMAssignments,
  type IpamClient,
  type ReleaseByHandleOptions,
  type ReleaseOptions,
} from './client/client-types.js';
// The request-counting wrapper the simulator reports round trips with (design/ipam-core.md).
export { type CountingDatastore, type CountingDatastoreOptions, countingDatastore, type RoundTripCounts } from './client/counting-datastore.js';
export { createIpamClient, systemClock } from './client/create-ipam-client.js';
export {
  type PartialAutoAssign,
  partialAutoAssignResult,
  type PartialRelease,
  partialReleaseResult,
} from './client/partial-results.js';
export { type CasBackoff, type CasRetryPolicy, withCasRetry } from './client/with-cas-retry.js';
// Runway and what-if planning (pure, over a snapshot; design/ipam-core.md, "Foresight").
export { applyWhatIf, type WhatIfChange } from './foresight/apply-what-if.js';
export { rateFromFlag, rateFromHistory, type AllocationRate, type RateSource } from './foresight/allocation-rate.js';
export { loadClusterSnapshot, type ClusterSnapshot } from './foresight/cluster-snapshot.js';
export {
  computeRunway,
  type NodeFamilyRunway,
  type NodeRunway,
  type PoolRunway,
  type RunwayOptions,
  type RunwayReport,
} from './foresight/compute-runway.js';
export type { FillFailure } from './foresight/plan-fill.js';
export { outOfRoom, type OutOfRoomLimit } from './foresight/out-of-room.js';
export type { PlannedFailure, RunwayLimit } from './foresight/planned-node.js';
export { createReservationFilter, type ReservationFilter } from './reservations/reservation-filter.js';
export { type BlockUtilization, type PoolUtilization } from './utilization/compute-utilization.js';
export { numReservedIPsInCIDR } from './utilization/num-reserved-ips-in-cidr.js';
