import type { Datastore, DatastoreTx } from '@ipamkit/models';

/** Round trips made through one counting view. */
export class RoundTripCounter {
  count = 0;
}

const STORES = ['ipPools', 'ipReservations', 'nodes', 'namespaces', 'blocks', 'affinities', 'handles', 'ipamConfig'] as const;
// Streams are not request/response round trips; every other method is one.
const NOT_COUNTED = new Set<PropertyKey>(['watch']);

function countingStore<T extends object>(store: T, counter: RoundTripCounter): T {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || NOT_COUNTED.has(prop)) return value;
      return (...args: unknown[]): unknown => {
        counter.count += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The same datastore, counting every request it makes. A transaction is one round trip however
 * many reads its body makes: on SQLite and etcd those reads happen inside one exchange.
 */
export function countingDatastore(ds: Datastore, counter: RoundTripCounter): Datastore {
  const stores = Object.fromEntries(STORES.map((name) => [name, countingStore(ds[name], counter)]));
  const transact = ds.transact;
  return {
    ...stores,
    kind: ds.kind,
    ...(transact === undefined
      ? {}
      : {
          transact: <R>(body: (tx: DatastoreTx) => Promise<R>): Promise<R> => {
            counter.count += 1;
            return transact.call(ds, body) as Promise<R>;
          },
        }),
    upgradeHost: (node: string) => ds.upgradeHost(node),
    // The simulator owns the real datastore; a view must never close it.
    close: () => Promise.resolve(),
  } as Datastore;
}
