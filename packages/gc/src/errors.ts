import { IpamError, ValidationError } from '@ipamkit/models';

/**
 * The collector's own errors, grouped like the shared ones (packages/models/src/errors.ts):
 * transient (try the pass again), validation (configuration is wrong), stop-and-re-evaluate (the
 * collector's own picture is wrong; Calico exits the process, we stop the pass and re-list).
 */

/** A pass left work behind (held handles, nodes whose cleanup failed); retried with backoff. */
export class GcWorkRemainingError extends IpamError {
  override name = 'GcWorkRemainingError';
  readonly category = 'transient';
  constructor(readonly failedNodes: number, readonly confirmedLeaks: number) {
    super(`work remaining: ${failedNodes} nodes, ${confirmedLeaks} confirmed leaks`);
  }
}

/** Bad collector configuration (a negative grace period, an unparseable duration). */
export class GcConfigError extends ValidationError {
  override name = 'GcConfigError';
}

/**
 * `releaseIPs` reported an address the collector never asked to release. Calico treats this as a
 * bug and exits; we stop the pass and re-list every input so the maps start from the datastore.
 */
export class UnexpectedReleaseError extends IpamError {
  override name = 'UnexpectedReleaseError';
  readonly category = 'stop-and-re-evaluate';
  constructor(readonly address: string) {
    super(`releaseIPs reported ${address}, which this pass did not ask to release`);
  }
}

/** assertConsistentState found maps that disagree; lists every violation. */
export class GcInconsistentStateError extends IpamError {
  override name = 'GcInconsistentStateError';
  readonly category = 'stop-and-re-evaluate';
  constructor(readonly problems: readonly string[]) {
    super(`garbage collector state is inconsistent:\n  ${problems.join('\n  ')}`);
  }
}
