import { DatastoreConfigError } from '@ipamkit/ipam-datastore';
import { isTransient } from '@ipamkit/models';
import { CNI_CODES, CniError } from '../errors.js';

/** One place maps any thrown value to a CNI error: our own carry their code, transient ones are 11. */
export function toCniError(err: unknown): CniError {
  if (err instanceof CniError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof DatastoreConfigError) return new CniError(CNI_CODES.invalidNetworkConfig, message, '', { cause: err });
  if (isTransient(err)) return new CniError(CNI_CODES.tryAgainLater, message, '', { cause: err });
  return new CniError(CNI_CODES.internal, message === '' ? 'internal error' : message, '', { cause: err });
}
