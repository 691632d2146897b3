import { DatastoreUnavailableError, IpamError, UnauthorizedError, ValidationError, WatchExpiredError } from '@ipamkit/models';
import { DatastoreClosedError, DatastoreConfigError } from '../errors.js';
import { EtcdWireError } from './wire/wire-error.js';

/**
 * The one place an etcd client's error becomes one of ours (design/ipam-datastore.md, "Error taxonomy": translate once, at the
 * boundary). Both clients say what went wrong as an EtcdWireError (design/ipam-datastore.md,
 * "etcd clients"); our own errors pass through untouched.
 *
 * Everything that is not clearly the caller's fault (bad argument, bad credentials, closed client)
 * is reported as DatastoreUnavailableError: unreachable hosts, deadlines, TLS handshakes, and
 * server-side failures such as a leader change all clear up by themselves or not at all, and a
 * bounded retry is the right reaction to both.
 */
export function translateEtcdError(err: unknown, identifier: string): IpamError {
  if (err instanceof IpamError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const options = { cause: err };
  const kind = err instanceof EtcdWireError ? err.kind : message.includes('required revision has been compacted') ? 'compacted' : 'unavailable';
  const at = err instanceof EtcdWireError && !message.includes(err.endpoint) ? ` (etcd at ${err.endpoint})` : '';
  switch (kind) {
    case 'compacted':
      return new WatchExpiredError(`etcd revision for ${identifier} was compacted: list again${err instanceof EtcdWireError ? ` (etcd at ${err.endpoint})` : ''}`, options);
    case 'unauthorized':
      return new UnauthorizedError(`etcd refused access to ${identifier}: ${message}${at}`, options);
    case 'bad-credentials':
      return new DatastoreConfigError(`${message}${at}`, options);
    case 'invalid-argument':
      return new ValidationError(`etcd rejected the request for ${identifier}: ${message}${at}`, options);
    case 'closed':
      return new DatastoreClosedError();
    case 'unavailable':
      return new DatastoreUnavailableError(`etcd unavailable for ${identifier}: ${message}${at}`, options);
  }
}
