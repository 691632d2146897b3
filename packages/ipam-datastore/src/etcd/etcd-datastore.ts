import type { Datastore } from '@ipamkit/models';
import type { EtcdTlsConfig } from '../create-datastore.js';
import { DatastoreConfigError } from '../errors.js';
import type { TransportRetry } from '../transport-retry.js';
import { DecodedMemo } from './decoded-memo.js';
import { EtcdKv } from './etcd-kv.js';
import { etcdStores } from './etcd-stores.js';
import { etcdStamps } from './etcd-stamps.js';
import { runTransaction, type TxReads } from './etcd-transaction.js';
import type { TransactionKv } from './transaction-kv.js';
import { TxReadCache } from './tx-read-cache.js';
import { endpointName, loadAuth, loadTls, parseEndpoints, type EtcdConnection } from './wire/connection.js';
import type { EtcdWire } from './wire/etcd-wire.js';
import { HttpEtcdWire } from './wire/http-wire.js';
import { LazyWire } from './wire/lazy-wire.js';

export interface EtcdDatastoreConfig {
  /** e.g. `['http://127.0.0.1:2379']`; never with user info (refused: give username/password). */
  readonly endpoints: string[];
  /**
   * `http` (default): etcd's JSON gateway over node:http(s), nothing heavy to load; `grpc`: the
   * etcd3 library, imported only when chosen. See design/ipam-datastore.md, "etcd clients".
   */
  readonly client?: 'http' | 'grpc';
  /** CA bundle, client certificate and key (PEM file paths, read at open), server name override. */
  readonly tls?: EtcdTlsConfig;
  /** etcd's own authentication: the user whose token every request carries. */
  readonly username?: string;
  readonly password?: string;
  /**
   * Prepended to every key (`<prefix>/calico/ipam/v2/...`), to share one etcd between isolated
   * users such as test runs. Empty (the default) is Calico's own layout.
   */
  readonly prefix?: string;
  /** Deadline of each unary etcd call, ms (default 10 000). */
  readonly callTimeoutMs?: number;
  /** Retry of unavailable-etcd errors inside the backend (default ETCD_TRANSPORT_RETRY). */
  readonly retry?: TransportRetry;
  /**
   * Let transactions take their reads from what this client last saw and prove them current in
   * the commit (one round trip in the steady state; see design/ipam-datastore.md). Default true;
   * false reads everything fresh in every transaction.
   */
  readonly transactionReadCache?: boolean;
  /** Called once for every request sent to etcd (a diagnostic hook: tests and benches count round trips with it). */
  readonly onRequest?: () => void;
  /**
   * grpc client only: largest gRPC message accepted from etcd (default 256 MiB). A watch that resumes behind (after an
   * etcd restart, or a slow consumer) is caught up with up to 1,000 revisions in ONE response, each
   * event carrying the value and the previous value: about 35 MB for full /26 blocks, far above
   * gRPC's 4 MiB default, which would break the stream on every reconnect.
   */
  readonly maxReceiveMessageBytes?: number;
}

/** Five attempts, 50 ms doubling (750 ms of waits): rides out an etcd leader election within a CNI timeout. */
export const ETCD_TRANSPORT_RETRY: TransportRetry = { attempts: 5, backoff: { baseMs: 50, capMs: 400 } };

export const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 256 * 1024 * 1024;

/** The read side of a transaction, over its key-value view (cache, batched reads, pinned revision). */
function transactionReads(view: TransactionKv): TxReads {
  const s = etcdStores(view);
  return {
    stamps: etcdStamps(view),
    blocks: { get: (cidr) => s.blocks.get(cidr), list: (options) => s.blocks.list(options) },
    affinities: { get: (key) => s.affinities.get(key), list: (options) => s.affinities.list(options) },
    handles: { get: (id) => s.handles.get(id) },
    ipamConfig: { get: () => s.ipamConfig.get() },
    ipPools: { list: () => s.ipPools.list() },
    ipReservations: { list: () => s.ipReservations.list() },
    nodes: { get: (name) => s.nodes.get(name) },
  };
}

/**
 * The etcdv3 backend: Calico's key layout and JSON values (design/calico-stored-formats.md#etcdv3-layout), revision = mod
 * revision, every write a compare-and-swap transaction (design/calico-stored-formats.md#revisions-and-cas), multi-object writes as one etcd
 * transaction, list-then-watch from a revision. See design/ipam-datastore.md, "etcd backend".
 */
export function createEtcdDatastore(config: EtcdDatastoreConfig): Datastore {
  const endpoints = parseEndpoints(config.endpoints);
  const prefix = config.prefix ?? '';
  if (prefix.endsWith('/')) throw new DatastoreConfigError(`etcd key prefix ${JSON.stringify(prefix)} must not end with "/": Calico keys start with one`);
  // Configurations come from JSON and the environment too: check what the type cannot.
  const client: unknown = config.client ?? 'http';
  if (client !== 'http' && client !== 'grpc') throw new DatastoreConfigError(`etcd client must be "http" or "grpc", got ${JSON.stringify(client)}`);
  const connection: EtcdConnection = {
    endpoints,
    tls: loadTls(config.tls, endpoints),
    auth: loadAuth(config.username, config.password),
    callTimeoutMs: config.callTimeoutMs ?? 10_000,
  };
  const wire = client === 'http' ? new HttpEtcdWire(connection) : grpcWire(connection, config.maxReceiveMessageBytes ?? DEFAULT_MAX_RECEIVE_MESSAGE_BYTES);
  const cache = config.transactionReadCache === false ? undefined : new TxReadCache();
  const kv = new EtcdKv(wire, prefix, config.retry ?? ETCD_TRANSPORT_RETRY, {
    memo: new DecodedMemo(),
    ...(cache === undefined ? {} : { txCache: cache }),
    ...(config.onRequest === undefined ? {} : { onRequest: config.onRequest }),
  });
  return {
    kind: 'etcd',
    ...etcdStores(kv),
    transact: (body, options) => runTransaction(kv, transactionReads, body, options),
    // etcd keeps affinities under /calico/ipam/v2/, never as labelled v3 resources: nothing to
    // back-fill (design/calico-stored-formats.md#upgradehost).
    upgradeHost: () => Promise.resolve(),
    close: () => {
      wire.close();
      return Promise.resolve();
    },
  };
}

/** The etcd3-based client, whose module (and etcd3, gRPC, protobufjs) is imported on first use only. */
function grpcWire(connection: EtcdConnection, maxReceiveMessageBytes: number): EtcdWire {
  const target = connection.endpoints.map(endpointName).join(',');
  return new LazyWire(target, async () => (await import('./wire/grpc-wire.js')).createGrpcWire(connection, { maxReceiveMessageBytes }));
}
