// The IPAM client (design/architecture.md#public-api, design/ipam-core.md).
export { createIpamClient, systemClock } from './create-ipam-client.js';
export type {
  AffinityConfig,
  AssignIPArgs,
  AssignIPResult,
  AssignmentAttributes,
  AutoAssignArgs,
  BlockArgs,
  BlockUtilization,
  Clock,
  CreateIpamClientOptions,
  IPAMAssignments,
  IpamClient,
  PoolUtilization,
  ReleaseOptions,
} from './client-types.js';
export { withCasRetry, casBackoffDelay, DATASTORE_RETRIES, DEFAULT_CAS_BACKOFF, type CasBackoff, type CasRetryPolicy } from './with-cas-retry.js';
export {
  countingDatastore,
  type CountingDatastore,
  type CountingDatastoreOptions,
  type RoundTripCounts,
} from './counting-datastore.js';
export {
  partialAutoAssignResult,
  partialReleaseResult,
  type PartialAutoAssign,
  type PartialRelease,
} from './partial-results.js';
export { createVMHandleId, ensureActiveVMOwnerAttrs, VM_OWNER_SWAP_RETRIES } from './kubevirt.js';
export { fnv1Hash32, randomBlockGenerator, sequentialBlockGenerator } from './block-generators.js';
export { EMPTY_BLOCK_MIN_RECLAIM_AGE_MS } from './find-usable-block.js';
export { blockCap } from './auto-assign.js';
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
} from './client-errors.js';
