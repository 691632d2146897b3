import { DatastoreConfigError } from '@ipamkit/ipam-datastore';
import { isTransient } from '@ipamkit/models';
import { CNI_CODES, CniError, messageOf } from '../errors.js';

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
  const message = messageOf(err);
  if (err instanceof DatastoreConfigError) return new CniError(CNI_CODES.invalidNetworkConfig, message, '', { cause: err });
  if (isTransient(err)) return new CniError(CNI_CODES.tryAgainLater, message, '', { cause: err });
  return new CniError(CNI_CODES.internal, message === '' ? 'internal error' : message, '', { cause: err });
}

/**
 * One place maps any thrown value to a CNI error: our own carry their code, transient ones are 11.
 * With `redact`, the message and details are redacted before they are cut (design/cni.md,
 * "Redaction"): this is the answer that reaches the runtime and kubelet's pod events.
 */
export function toCniError(err: unknown, redact?: (text: string) => string): CniError {
  const cni = classify(err);
  const message = redact === undefined ? cni.message : redact(cni.message);
  const details = redact === undefined ? cni.details : redact(cni.details);
  if (message === cni.message && details === cni.details && message.length <= MAX_ANSWER_TEXT && details.length <= MAX_ANSWER_TEXT) return cni;
  return new CniError(cni.code, cut(message), cut(details), { cause: err, category: cni.category });
}
