import { IpamError } from '@ipamkit/models';

/** A flag or option that cannot work (validation: fix the command line, retrying cannot help). */
export class SimConfigError extends IpamError {
  override name = 'SimConfigError';
  readonly category = 'validation';
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
