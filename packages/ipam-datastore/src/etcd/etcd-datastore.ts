import { Etcd3 } from 'etcd3';
import { ValidationError, type Datastore } from '@ipamkit/models';
import { EtcdKv } from './etcd-kv.js';
import { etcdStores } from './etcd-stores.js';
import { runTransaction, type TxReads } from './etcd-transaction.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-unavailable.js';
import { SnapshotKv } from './snapshot-kv.js';

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
}

/** The read side of a transaction: every read pinned to one revision. */
function snapshotReads(kv: EtcdKv): TxReads {
  const s = etcdStores(new SnapshotKv(kv));
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
    // Streams (watches) live until cancelled; every other call gets a deadline so a hung etcd
    // surfaces as DatastoreUnavailableError instead of a hung CNI invocation.
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + callTimeoutMs }),
  });
  const kv = new EtcdKv(client, prefix, config.retry ?? DEFAULT_RETRY_POLICY);
  return {
    kind: 'etcd',
    ...etcdStores(kv),
    transact: (body) => runTransaction(kv, snapshotReads(kv), body),
    // etcd keeps affinities under /calico/ipam/v2/, never as labelled v3 resources: nothing to
    // back-fill (spec/datastore.md §4.6).
    upgradeHost: () => Promise.resolve(),
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}
