import { IpamError, ValidationError } from '@ipamkit/models';

// Client-specific errors (design/ipam-core.md, "Error taxonomy"). The shared classes in
// @ipamkit/models cover everything callers are expected to branch on; these refine them.

/** A retry loop ran out of attempts (Calico: "Max retries hit - excessive concurrent IPAM requests"). */
export class MaxRetriesError extends IpamError {
  override name = 'MaxRetriesError';
  readonly category = 'transient';
  constructor(readonly operation: string, readonly attempts: number, options?: { cause?: unknown }) {
    super(`Max retries hit - excessive concurrent IPAM requests (${operation}, ${attempts} attempts)`, options);
  }
}

/** No unclaimed or reclaimable block is left in the candidate pools (Calico's internal noFreeBlocksError). */
export class NoFreeBlocksError extends IpamError {
  override name = 'NoFreeBlocksError';
  readonly category = 'state';
  constructor() {
    super('No Free Blocks');
  }
}

/** Another owner holds the block we tried to claim or release (errBlockClaimConflict). */
export class BlockClaimConflictError extends IpamError {
  override name = 'BlockClaimConflictError';
  readonly category = 'transient';
  constructor(readonly cidr: string, readonly owner: string | undefined) {
    super(`${cidr} already claimed by ${owner ?? '(no affinity)'}`);
  }
}

/** An affinity did not match its block and was deleted (errStaleAffinity). */
export class StaleAffinityError extends IpamError {
  override name = 'StaleAffinityError';
  readonly category = 'transient';
  constructor(readonly cidr: string, readonly host: string) {
    super(`affinity of ${host} for ${cidr} did not match the block and was removed`);
  }
}

/** A handle at its per-family cap has fewer addresses than the request needs: a concurrent assign is in flight. */
export class InsufficientIPsByHandleError extends IpamError {
  override name = 'InsufficientIPsByHandleError';
  readonly category = 'transient';
  constructor(readonly handleId: string, readonly existingCount: number, readonly requiredCount: number) {
    super(`handle ${handleId} has ${existingCount} IPs allocated but requires ${requiredCount} (concurrent operation in progress)`);
  }
}

/** A CIDR given to the affinity APIs is smaller than the pool's block size (invalidSizeError). */
export class InvalidSizeError extends ValidationError {
  override name = 'InvalidSizeError';
  constructor(readonly cidr: string) {
    super(`The requested CIDR (${cidr}) is smaller than the minimum.`);
  }
}

/** A release of a block affinity found the block changed since the caller read it. */
export class BlockChangedError extends IpamError {
  override name = 'BlockChangedError';
  readonly category = 'stop-and-re-evaluate';
  constructor(readonly cidr: string) {
    super(`IPAM block ${cidr} updated since we last read it`);
  }
}

/** KubeVirt owner swap: the migration target is not recorded as the alternate owner. */
export class AlternateOwnerEmptyError extends IpamError {
  override name = 'AlternateOwnerEmptyError';
  readonly category = 'stop-and-re-evaluate';
}

export class AlternateOwnerMismatchError extends IpamError {
  override name = 'AlternateOwnerMismatchError';
  readonly category = 'stop-and-re-evaluate';
}

/**
 * A block just found or claimed had fewer free addresses than required by the time it was read:
 * another process on the same host filled it. Calico fails the AutoAssign here; we search again.
 */
export class BlockFilledError extends IpamError {
  override name = 'BlockFilledError';
  readonly category = 'transient';
  constructor(readonly cidr: string, readonly free: number, readonly required: number) {
    super(`Block '${cidr}' has ${free} free ips which is less than ${required} ips required.`);
  }
}
