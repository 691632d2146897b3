import {
  ClientClosedError,
  EtcdAuthenticationFailedError,
  EtcdInvalidAuthTokenError,
  EtcdPermissionDeniedError,
  GRPCInvalidArgumentError,
  GRPCUnauthenticatedError,
} from 'etcd3';
import {
  DatastoreUnavailableError,
  IpamError,
  UnauthorizedError,
  ValidationError,
  WatchExpiredError,
} from '@ipamkit/models';
import { DatastoreClosedError } from '../errors.js';

/**
 * The one place an etcd3/gRPC error becomes one of ours (CONVENTIONS.md: translate once, at the
 * boundary). Our own errors pass through untouched.
 *
 * Everything that is not clearly the caller's fault (bad argument, bad credentials, closed client)
 * is reported as DatastoreUnavailableError: unreachable hosts, an open circuit breaker, deadlines,
 * and server-side failures such as a leader change all clear up by themselves or not at all, and
 * a bounded retry is the right reaction to both.
 */
export function translateEtcdError(err: unknown, identifier: string): IpamError {
  if (err instanceof IpamError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const options = { cause: err };
  if (message.includes('required revision has been compacted')) {
    return new WatchExpiredError(`etcd revision for ${identifier} was compacted: list again`, options);
  }
  if (
    err instanceof EtcdPermissionDeniedError ||
    err instanceof EtcdAuthenticationFailedError ||
    err instanceof EtcdInvalidAuthTokenError ||
    err instanceof GRPCUnauthenticatedError
  ) {
    return new UnauthorizedError(`etcd refused access to ${identifier}: ${message}`, options);
  }
  if (err instanceof GRPCInvalidArgumentError) {
    return new ValidationError(`etcd rejected the request for ${identifier}: ${message}`, options);
  }
  if (err instanceof ClientClosedError) return new DatastoreClosedError();
  return new DatastoreUnavailableError(`etcd unavailable for ${identifier}: ${message}`, options);
}

