import { type ErrorCategory, IpamError, ValidationError } from '@ipamkit/models';

/**
 * Errors of the tunnel allocator (design/tunnel-alloc.md, "Error taxonomy"). Datastore and IPAM
 * errors are wrapped once, with Calico's message prefix, and keep the category of their cause so a
 * caller can still tell a transient failure from a validation one.
 */

/** `NODENAME` is missing: the allocator cannot know which Node it serves. */
export class NodeNameMissingError extends ValidationError {
  override name = 'NodeNameMissingError';
  constructor() {
    super('NODENAME environment is not set');
  }
}

/** A tunnel field on the Node holds something that is not a plain IP address. */
export class TunnelAddressParseError extends ValidationError {
  override name = 'TunnelAddressParseError';
  constructor(readonly address: string, readonly field: string) {
    super(`failed to parse the CIDR '${address}'`);
  }
}

/** An IP pool whose CIDR cannot be parsed: the pool configuration itself is broken. */
export class PoolCidrError extends ValidationError {
  override name = 'PoolCidrError';
  constructor(readonly pool: string, readonly cidr: string) {
    super(`unable to assign an address: invalid IP version for IP pool ${cidr}`);
  }
}

/** An option or flag the allocator does not understand. */
export class TunnelOptionError extends ValidationError {
  override name = 'TunnelOptionError';
}

/** What the reconcile was doing when a wrapped error happened. */
export type TunnelStep = 'fetch-node' | 'list-pools' | 'lookup' | 'assign' | 'release' | 'update-node';

function categoryOf(cause: unknown): ErrorCategory {
  return cause instanceof IpamError ? cause.category : 'transient';
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * A datastore or IPAM call failed during a reconcile. `category` is the cause's (an unknown cause
 * counts as transient: the daemon stops, and its supervisor restarting it is the retry).
 */
export class TunnelStepError extends IpamError {
  override name = 'TunnelStepError';
  readonly category: ErrorCategory;
  constructor(readonly step: TunnelStep, prefix: string, cause: unknown) {
    super(`${prefix}: ${messageOf(cause)}`, { cause });
    this.category = categoryOf(cause);
  }
}

/** AutoAssign returned no address (no free space, block limit…); `msgs` are the core's reasons. */
export class TunnelAssignShortError extends IpamError {
  override name = 'TunnelAssignShortError';
  readonly category = 'validation';
  constructor(readonly version: 4 | 6, readonly msgs: readonly string[]) {
    super(`Assigned 0 out of 1 requested IPv${version} addresses; ${msgs.length === 0 ? 'no reason given' : msgs.join('; ')}`);
  }
}

/** The daemon's reconcile failed; the daemon stops and the process exits non-zero (like Calico). */
export class TunnelReconcileError extends IpamError {
  override name = 'TunnelReconcileError';
  readonly category: ErrorCategory;
  constructor(cause: unknown) {
    super(`failed to reconcile tunnel address: ${messageOf(cause)}`, { cause });
    this.category = categoryOf(cause);
  }
}
