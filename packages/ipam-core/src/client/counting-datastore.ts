import type { Datastore, DatastoreKind, DatastoreTx, TransactOptions } from '@ipamkit/models';

/** Sequential datastore round trips observed through a countingDatastore wrapper. */
export interface RoundTripCounts {
  /**
   * Sequential round trips: the number of times the datastore went from idle to busy. Calls started
   * while others are in flight (a Promise.all) join the current wave. A `transact` is one wave on
   * SQLite and memory (the whole body runs inside one local transaction) and, on etcd, its read
   * waves plus one for the commit txn (design/ipam-core.md, "Counting round trips").
   */
  readonly waves: number;
  /** Individual calls: each read, write and transaction (its commit), plus the reads made inside transactions. */
  readonly calls: number;
  /** `transact` invocations. */
  readonly transactions: number;
  /** Requests as a client sends them: each call outside a transaction, and each transaction as one. */
  readonly requests: number;
}

export interface CountingDatastoreOptions {
  /** Report (and count as) this kind instead of the wrapped datastore's. */
  readonly asKind?: DatastoreKind;
  /** Hide `transact`, as a Kubernetes backend has none. */
  readonly withoutTransact?: boolean;
}

export interface CountingDatastore {
  readonly datastore: Datastore;
  counts(): RoundTripCounts;
  reset(): void;
}

type AnyFn = (...args: unknown[]) => unknown;

/** Wraps every promise-returning method of `store` with `track`; `watch` streams pass through uncounted. */
function wrapStore<S extends object>(store: S, track: (run: () => Promise<unknown>) => Promise<unknown>): S {
  return new Proxy(store, {
    get(target, prop, receiver): unknown {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'watch' || prop === 'write') {
        return typeof value === 'function' ? (value as AnyFn).bind(target) : value;
      }
      return (...args: unknown[]) => track(() => Promise.resolve((value as AnyFn).apply(target, args)));
    },
  });
}

/** Counts waves: a wave starts whenever a call begins while nothing is in flight. */
class WaveCounter {
  waves = 0;
  calls = 0;
  private inFlight = 0;

  readonly track = async (run: () => Promise<unknown>): Promise<unknown> => {
    if (this.inFlight === 0) this.waves += 1;
    this.inFlight += 1;
    this.calls += 1;
    try {
      return await run();
    } finally {
      this.inFlight -= 1;
    }
  };
}

/**
 * A Datastore that records sequential round trips (design/ipam-core.md, "Counting round trips"):
 * the tests and the bench assert the counts of one AutoAssign per backend kind with it, and the
 * simulator reports its requests per CNI ADD. The one counting wrapper of the workspace.
 */
export function countingDatastore(inner: Datastore, options: CountingDatastoreOptions = {}): CountingDatastore {
  const kind = options.asKind ?? inner.kind;
  let outer = new WaveCounter();
  let transactions = 0;
  let txCalls = 0;
  let txWaves = 0;
  const track = (run: () => Promise<unknown>): Promise<unknown> => outer.track(run);

  const wrapTx = (tx: DatastoreTx, counter: WaveCounter | undefined): DatastoreTx => {
    const inTx = async (run: () => Promise<unknown>): Promise<unknown> => {
      txCalls += 1;
      return counter === undefined ? run() : counter.track(run);
    };
    return {
      stamps: wrapStore(tx.stamps, inTx),
      blocks: wrapStore(tx.blocks, inTx),
      affinities: wrapStore(tx.affinities, inTx),
      handles: wrapStore(tx.handles, inTx),
      ipamConfig: wrapStore(tx.ipamConfig, inTx),
      ipPools: wrapStore(tx.ipPools, inTx),
      ipReservations: wrapStore(tx.ipReservations, inTx),
      nodes: wrapStore(tx.nodes, inTx),
      write: (w) => tx.write(w),
    };
  };

  const innerTransact = inner.transact;
  const transact: Datastore['transact'] =
    innerTransact === undefined || options.withoutTransact === true
      ? undefined
      : async <R>(body: (tx: DatastoreTx) => Promise<R>, txOptions?: TransactOptions): Promise<R> => {
          transactions += 1;
          if (kind !== 'etcd') {
            // One local transaction: BEGIN IMMEDIATE … COMMIT in-process; its reads never leave the host.
            return (await track(() => innerTransact((tx) => body(wrapTx(tx, undefined)), txOptions))) as R;
          }
          // etcd: each read wave inside the body is a round trip, and the commit is one more txn.
          const counter = new WaveCounter();
          try {
            return await innerTransact((tx) => body(wrapTx(tx, counter)), txOptions);
          } finally {
            txWaves += counter.waves + 1;
            txCalls += 1;
          }
        };

  const datastore: Datastore = {
    kind,
    ipPools: wrapStore(inner.ipPools, track),
    ipReservations: wrapStore(inner.ipReservations, track),
    nodes: wrapStore(inner.nodes, track),
    namespaces: wrapStore(inner.namespaces, track),
    blocks: wrapStore(inner.blocks, track),
    affinities: wrapStore(inner.affinities, track),
    handles: wrapStore(inner.handles, track),
    ipamConfig: wrapStore(inner.ipamConfig, track),
    ...(transact === undefined ? {} : { transact }),
    upgradeHost: async (node) => {
      await track(() => inner.upgradeHost(node));
    },
    close: () => inner.close(),
  };

  return {
    datastore,
    // Off etcd a transaction is already one of `outer`'s calls (track wraps it whole).
    counts: () => ({ waves: outer.waves + txWaves, calls: outer.calls + txCalls, transactions, requests: outer.calls + (kind === 'etcd' ? transactions : 0) }),
    reset: () => {
      outer = new WaveCounter();
      transactions = 0;
      txCalls = 0;
      txWaves = 0;
    },
  };
}
