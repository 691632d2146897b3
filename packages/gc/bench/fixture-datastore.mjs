// A lean, read-only Datastore for the full-sync bench (design/gc.md "Performance"). The memory
// datastore keeps every block twice (its table and its change log for watchers) and clones every
// block again on `listWithRevision`; at 10,000 blocks that is most of the old bench's RSS and over
// a second of its "ingest", none of it the collector's. This stub holds no rows: blocks come from
// a generator, so each listing is a set of fresh objects the caller owns, exactly like a listing
// decoded from etcd or the Kubernetes API, and the fixture keeps no copy of it.

import { performance } from 'node:perf_hooks';

const unsupported = (what) => () => Promise.reject(new Error(`the bench fixture datastore does not support ${what}`));

function emptyWatch() {
  return {
    [Symbol.asyncIterator]() {
      return { next: () => Promise.resolve({ done: true, value: undefined }) };
    },
  };
}

function readOnlyStore(name, list) {
  return {
    listWithRevision: () => Promise.resolve({ items: list(), revision: '1' }),
    list: () => Promise.resolve(list()),
    watch: emptyWatch,
    get: unsupported(`${name}.get`),
    create: unsupported(`${name}.create`),
    update: unsupported(`${name}.update`),
    delete: unsupported(`${name}.delete`),
  };
}

/**
 * `generateBlocks()` returns a fresh array of `Versioned<AllocationBlock>`; `reservations` are the
 * IPReservations listed (none by default). `prepareBlockListing()`
 * builds the next listing ahead of time (outside the timed span) and returns how long it took; the
 * next `blocks.listWithRevision()` hands that array over and drops the fixture's reference to it.
 */
export function createFixtureDatastore({ pools, generateBlocks, reservations = [] }) {
  let prepared;
  const nextBlocks = () => {
    const items = prepared ?? generateBlocks();
    prepared = undefined;
    return items;
  };
  return {
    kind: 'memory',
    ipPools: readOnlyStore('ipPools', () => pools.map((p) => ({ ...p }))),
    ipReservations: readOnlyStore('ipReservations', () => reservations.map((r) => ({ ...r, reservedCIDRs: [...r.reservedCIDRs] }))),
    nodes: readOnlyStore('nodes', () => []),
    namespaces: readOnlyStore('namespaces', () => []),
    blocks: readOnlyStore('blocks', nextBlocks),
    affinities: readOnlyStore('affinities', () => []),
    handles: readOnlyStore('handles', () => []),
    ipamConfig: { get: unsupported('ipamConfig.get'), create: unsupported('ipamConfig.create'), update: unsupported('ipamConfig.update'), delete: unsupported('ipamConfig.delete') },
    upgradeHost: () => Promise.resolve(),
    close: () => Promise.resolve(),
    prepareBlockListing() {
      const start = performance.now();
      prepared = generateBlocks();
      return performance.now() - start;
    },
  };
}
