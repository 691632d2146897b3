import { IpamError } from '@ipamkit/models';

/** A flag or option that cannot work (validation: fix the command line, retrying cannot help). */
export class SimConfigError extends IpamError {
  override name = 'SimConfigError';
  readonly category = 'validation';
}

/**
 * The cluster reached a state an invariant forbids (stop-and-re-evaluate: a bug to investigate).
 * Carries every violation so that the report names all of them, not just the first.
 */
export class InvariantViolationError extends IpamError {
  override name = 'InvariantViolationError';
  readonly category = 'stop-and-re-evaluate';

  constructor(readonly violations: readonly string[]) {
    super(`${violations.length} invariant violation(s):\n${violations.map((v) => `  - ${v}`).join('\n')}`);
  }
}

/** A step of the simulation failed in a way the run cannot continue from (e.g. etcd did not start). */
export class SimStepError extends IpamError {
  override name = 'SimStepError';
  readonly category = 'transient';

  constructor(readonly step: string, message: string, options?: { cause?: unknown }) {
    super(`${step}: ${message}`, options);
  }
}

/** What a bad flag becomes (the shared flag parser of design/models.md, "Bins", reports through it). */
export const invalidSimFlag = (message: string): SimConfigError => new SimConfigError(message);
