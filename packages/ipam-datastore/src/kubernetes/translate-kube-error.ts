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
 * An HTTP failure from the API server → our error taxonomy (spec/datastore.md §10.4), decided
 * from the status code and the `Status` body's reason: 409 AlreadyExists vs Conflict, 404, 410,
 * 401/403, 422/400 (the request is wrong), 429/5xx (transient: retried by the caller's policy).
 */
export function statusError(code: number, body: string, identifier: string): IpamError {
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
      return new UnauthorizedError(`${identifier}: ${message}`);
    default:
      if (code === 429 || code >= 500) return new DatastoreUnavailableError(`${identifier}: HTTP ${code}: ${message}`);
      return new ValidationError(`${identifier}: HTTP ${code}: ${message}`);
  }
}

/** A request that never got an HTTP answer (refused, reset, DNS) is transient. */
export function networkError(identifier: string, cause: unknown): DatastoreUnavailableError {
  const detail = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
  return new DatastoreUnavailableError(`${identifier}: cannot reach the Kubernetes API server (${detail})`, { cause });
}
