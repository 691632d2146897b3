import {
  ClientClosedError,
  EtcdAuthenticationFailedError,
  EtcdInvalidAuthTokenError,
  EtcdPermissionDeniedError,
  GRPCInvalidArgumentError,
  GRPCUnauthenticatedError,
} from 'etcd3';
import { EtcdWireError } from './wire-error.js';

/** An etcd3/gRPC error as an EtcdWireError naming `endpoint` (design/ipam-datastore.md, "etcd clients"). */
export function grpcWireError(err: unknown, endpoint: string): unknown {
  if (err instanceof EtcdWireError || !(err instanceof Error)) return err;
  const options = { cause: err };
  const text = `etcd at ${endpoint}: ${err.message}`;
  if (err.message.includes('required revision has been compacted')) return new EtcdWireError('compacted', endpoint, text, options);
  if (err instanceof EtcdAuthenticationFailedError) {
    return new EtcdWireError('bad-credentials', endpoint, `etcd at ${endpoint} rejected the username/password: ${err.message}`, options);
  }
  const unauthenticated = err.message.includes('user name is empty');
  if (unauthenticated || err instanceof EtcdPermissionDeniedError || err instanceof EtcdInvalidAuthTokenError || err instanceof GRPCUnauthenticatedError) {
    return new EtcdWireError('unauthorized', endpoint, text, options);
  }
  if (err instanceof GRPCInvalidArgumentError) return new EtcdWireError('invalid-argument', endpoint, text, options);
  if (err instanceof ClientClosedError) return new EtcdWireError('closed', endpoint, text, options);
  return new EtcdWireError('unavailable', endpoint, text, options);
}

/** Runs one etcd3 call, its failure said as an EtcdWireError. */
export async function grpcCall<T>(endpoint: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw grpcWireError(err, endpoint);
  }
}
