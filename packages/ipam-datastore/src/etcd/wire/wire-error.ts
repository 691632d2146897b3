/**
 * What went wrong talking to etcd, said the same way by both clients (design/ipam-datastore.md,
 * "etcd clients"). `translateEtcdError` turns it into one of our error classes, adding what the
 * failed request was for. Messages name the endpoint and never carry a secret.
 */
export type WireErrorKind =
  /** Unreachable, refused, timed out, TLS handshake failed, or a transient server failure. */
  | 'unavailable'
  /** The read asked for a revision etcd has compacted away. */
  | 'compacted'
  /** The authenticated user may not do this. */
  | 'unauthorized'
  /** The configured username/password (or client certificate identity) was rejected. */
  | 'bad-credentials'
  /** etcd rejected the request itself (too many operations, bad range). */
  | 'invalid-argument'
  /** The client was closed. */
  | 'closed';

export class EtcdWireError extends Error {
  override name = 'EtcdWireError';
  constructor(
    readonly kind: WireErrorKind,
    /** The endpoint (or endpoints) concerned, without user info. */
    readonly endpoint: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
