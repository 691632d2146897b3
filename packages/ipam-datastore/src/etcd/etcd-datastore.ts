import { Etcd3 } from 'etcd3';
import { ValidationError, type Datastore } from '@ipamkit/models';
import { DecodedMemo } from './decoded-memo.js';
import { EtcdKv } from './etcd-kv.js';
import { etcdStores } from './etcd-stores.js';
import { runTransaction, type TxReads } from './etcd-transaction.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-unavailable.js';
import type { TransactionKv } from './transaction-kv.js';
import { TxReadCache } from './tx-read-cache.js';

export interface EtcdDatastoreConfig {
  /** e.g. `['http://127.0.0.1:2379']`. */
  readonly endpoints: string[];
  /**
   * Prepended to every key (`<prefix>/calico/ipam/v2/...`), to share one etcd between isolated
   * users such as test runs. Empty (the default) is Calico's own layout.
   */
  readonly prefix?: string;
  /** Deadline of each unary etcd call, ms (default 10 000). */
  readonly callTimeoutMs?: number;
  /** Retry of unavailable-etcd errors inside the backend (default 5 attempts from 50 ms). */
  readonly retry?: RetryPolicy;
  /**
   * Let transactions take their reads from what this client last saw and prove them current in
   * the commit (one round trip in the steady state; see design/ipam-datastore.md). Default true;
   * false reads everything fresh in every transaction.
   */
  readonly transactionReadCache?: boolean;
  /** Called once for every request sent to etcd (a diagnostic hook: tests and benches count round trips with it). */
  readonly onRequest?: () => void;
  /**
   * Largest gRPC message accepted from etcd (default 256 MiB). A watch that resumes behind (after an
   * etcd restart, or a slow consumer) is caught up with up to 1,000 revisions in ONE response, each
   * event carrying the value and the previous value: about 35 MB for full /26 blocks, far above
   * gRPC's 4 MiB default, which would break the stream on every reconnect.
   */
  readonly maxReceiveMessageBytes?: number;
}

export const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 256 * 1024 * 1024;

/** The read side of a transaction, over its key-value view (cache, batched reads, pinned revision). */
function transactionReads(view: TransactionKv): TxReads {
  const s = etcdStores(view);
  return {
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
 * The etcdv3 backend: Calico's key layout and JSON values (spec/datastore.md §9), revision = mod
 * revision, every write a compare-and-swap transaction (§10.1), multi-object writes as one etcd
 * transaction, list-then-watch from a revision. See design/ipam-datastore.md, "etcd backend".
 */
export function createEtcdDatastore(config: EtcdDatastoreConfig): Datastore {
  if (config.endpoints.length === 0) throw new ValidationError('etcd datastore needs at least one endpoint');
  const prefix = config.prefix ?? '';
  if (prefix.endsWith('/')) throw new ValidationError(`etcd key prefix ${JSON.stringify(prefix)} must not end with "/": Calico keys start with one`);
  const callTimeoutMs = config.callTimeoutMs ?? 10_000;
  const client = new Etcd3({
    hosts: config.endpoints,
    grpcOptions: { 'grpc.max_receive_message_length': config.maxReceiveMessageBytes ?? DEFAULT_MAX_RECEIVE_MESSAGE_BYTES },
    // Streams (watches) live until cancelled; every other call gets a deadline so a hung etcd
    // surfaces as DatastoreUnavailableError instead of a hung CNI invocation.
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + callTimeoutMs }),
  });
  const cache = config.transactionReadCache === false ? undefined : new TxReadCache();
  const kv = new EtcdKv(client, prefix, config.retry ?? DEFAULT_RETRY_POLICY, {
    memo: new DecodedMemo(),
    ...(cache === undefined ? {} : { txCache: cache }),
    ...(config.onRequest === undefined ? {} : { onRequest: config.onRequest }),
  });
  return {
    kind: 'etcd',
    ...etcdStores(kv),
    transact: (body) => runTransaction(kv, transactionReads, body),
    // etcd keeps affinities under /calico/ipam/v2/, never as labelled v3 resources: nothing to
    // back-fill (spec/datastore.md §4.6).
    upgradeHost: () => Promise.resolve(),
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}
