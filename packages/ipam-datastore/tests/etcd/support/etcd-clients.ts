import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import type { EtcdHandle } from '@ipamkit/test-utils';
import type { EtcdDatastoreConfig } from '../../../src/etcd/index.js';

/** Both etcd clients of the backend: every etcd suite runs once per client (design/ipam-datastore.md, "etcd clients"). */
export const ETCD_CLIENTS = ['http', 'grpc'] as const;
export type EtcdClientName = (typeof ETCD_CLIENTS)[number];

/** What a datastore needs to reach `handle`: its TLS files and credentials, if it has them. */
export function securityOf(handle: EtcdHandle): Pick<EtcdDatastoreConfig, 'tls' | 'username' | 'password'> {
  return {
    ...(handle.tls === undefined ? {} : { tls: { caFile: handle.tls.caFile, certFile: handle.tls.certFile, keyFile: handle.tls.keyFile } }),
    ...(handle.auth === undefined ? {} : { username: handle.auth.username, password: handle.auth.password }),
  };
}

/** An independent etcd3 client for test setup and inspection, over the handle's TLS and auth. */
export function rawEtcd(handle: EtcdHandle): Etcd3 {
  const { tls, auth } = handle;
  return new Etcd3({
    hosts: handle.endpoint,
    ...(tls === undefined
      ? {}
      : { credentials: { rootCertificate: readFileSync(tls.caFile), certChain: readFileSync(tls.certFile), privateKey: readFileSync(tls.keyFile) } }),
    ...(auth === undefined ? {} : { auth: { username: auth.username, password: auth.password } }),
  });
}
