import {
  AlreadyExistsError,
  ConflictError,
  DatastoreUnavailableError,
  type IpamError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
  WatchExpiredError,
} from '@ipamkit/models';
import { parseWireJson } from '@ipamkit/models';

/** The parts of a Kubernetes `Status` body the translation reads. */
interface KubeStatus {
  reason?: string;
  message?: string;
  code?: number;
}

function parseStatus(text: string): KubeStatus {
  try {
    const parsed = parseWireJson(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * An HTTP failure from the API server → our error taxonomy (design/calico-stored-formats.md#datastore-errors), decided
 * from the status code and the `Status` body's reason: 409 AlreadyExists vs Conflict, 404, 410,
 * 401/403, 422/400 (the request is wrong), 429/5xx (transient: retried by the caller's policy).
 */
export function statusError(code: number, body: string, identifier: string, server?: string): IpamError {
  const status = parseStatus(body);
  const message = status.message ?? `HTTP ${code}`;
  switch (code) {
    case 404:
      return new NotFoundError(identifier, `resource does not exist: ${identifier}: ${message}`);
    case 409:
      if (status.reason === 'AlreadyExists') return new AlreadyExistsError(identifier, `resource already exists: ${identifier}`);
      // A failed UID precondition means the object we meant is gone (replaced by a new one).
      if (message.includes('UID in precondition')) return new NotFoundError(identifier, `resource does not exist: ${identifier}: ${message}`);
      return new ConflictError(identifier, `update conflict on ${identifier}: ${message}`);
    case 410:
      return new WatchExpiredError(`${identifier}: ${message}`);
    case 401:
    case 403:
      // Names the server, never the credentials (design/ipam-datastore.md, Redaction).
      return new UnauthorizedError(`${identifier}: the API server${server === undefined ? '' : ` ${server}`} refused the request (HTTP ${code}): ${message}`);
    default:
      if (code === 429 || code >= 500) return new DatastoreUnavailableError(`${identifier}: HTTP ${code}: ${message}`);
      return new ValidationError(`${identifier}: HTTP ${code}: ${message}`);
  }
}

// Certificate verification failures that carry no ERR_SSL_/ERR_TLS_ prefix.
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
]);

/** Errors a retry cannot fix: the TLS handshake failed (wrong CA, missing client certificate, wrong name). */
function isTlsFailure(code: string): boolean {
  return code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || CERT_CODES.has(code);
}

/**
 * A request that never got an HTTP answer. Refused, reset, DNS: transient. A failed TLS handshake:
 * UnauthorizedError, not retried. The message names the server and the error code only.
 */
export function networkError(identifier: string, cause: unknown, server?: string): IpamError {
  const code = cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined;
  const detail = code ?? (cause instanceof Error ? cause.name : 'unknown error');
  const where = server === undefined ? 'the Kubernetes API server' : `the Kubernetes API server ${server}`;
  if (code !== undefined && isTlsFailure(code)) {
    return new UnauthorizedError(
      `${identifier}: TLS with ${where} failed (${code}): check the kubeconfig's certificate-authority, client certificate and key, and tls-server-name`,
      { cause },
    );
  }
  return new DatastoreUnavailableError(`${identifier}: cannot reach ${where} (${detail})`, { cause });
}
