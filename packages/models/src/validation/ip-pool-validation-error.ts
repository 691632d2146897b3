import { ValidationError } from '../errors.js';

/** An IPPool broke one or more rules; `problems` lists every one, not just the first. */
export class IPPoolValidationError extends ValidationError {
  override name = 'IPPoolValidationError';
  constructor(
    readonly poolName: string,
    readonly problems: readonly string[],
  ) {
    super(`IPPool ${JSON.stringify(poolName)} is invalid: ${problems.join('; ')}`);
  }
}

/** An IPAMConfig value is out of range; `problems` lists every one. */
export class IPAMConfigValidationError extends ValidationError {
  override name = 'IPAMConfigValidationError';
  constructor(readonly problems: readonly string[]) {
    super(`IPAMConfig is invalid: ${problems.join('; ')}`);
  }
}
