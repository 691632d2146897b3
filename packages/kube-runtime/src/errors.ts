import { ValidationError } from '@ipamkit/models';

/** A flag or environment value a controller cannot run with: fix the input, retrying will not help. */
export class ControllerConfigError extends ValidationError {
  override name = 'ControllerConfigError';
}
