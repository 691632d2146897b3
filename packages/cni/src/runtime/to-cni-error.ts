import { DatastoreConfigError } from '@ipamkit/ipam-datastore';
import { isTransient } from '@ipamkit/models';
import { CNI_CODES, CniError } from '../errors.js';

/**
 * The longest message or details an answer carries. Inputs are cut to 256 characters where they
 * are quoted (design/cni.md, "Input limits"); this is the backstop for text we did not write.
 */
export const MAX_ANSWER_TEXT = 2048;

function cut(text: string): string {
  return text.length <= MAX_ANSWER_TEXT ? text : `${text.slice(0, MAX_ANSWER_TEXT)}… (cut)`;
}

function classify(err: unknown): CniError {
  if (err instanceof CniError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof DatastoreConfigError) return new CniError(CNI_CODES.invalidNetworkConfig, message, '', { cause: err });
  if (isTransient(err)) return new CniError(CNI_CODES.tryAgainLater, message, '', { cause: err });
  return new CniError(CNI_CODES.internal, message === '' ? 'internal error' : message, '', { cause: err });
}

/** One place maps any thrown value to a CNI error: our own carry their code, transient ones are 11. */
export function toCniError(err: unknown): CniError {
  const cni = classify(err);
  if (cni.message.length <= MAX_ANSWER_TEXT && cni.details.length <= MAX_ANSWER_TEXT) return cni;
  return new CniError(cni.code, cut(cni.message), cut(cni.details), { cause: err, category: cni.category });
}
