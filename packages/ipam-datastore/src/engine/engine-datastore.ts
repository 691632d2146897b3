import type { Datastore, DatastoreKind, IPPool, IPReservation, Namespace, Node } from '@ipamkit/models';
import { EngineRunner } from './engine-runner.js';
import { affinityStore, blockStore, handleStore, ipamConfigStore, resourceStore } from './engine-stores.js';
import { engineTransact } from './engine-transact.js';
import type { RowEngine } from './row-engine.js';

export interface EngineDatastoreOptions {
  readonly kind: DatastoreKind;
  readonly engine: RowEngine;
  /** How often an idle watch re-reads the change log. */
  readonly pollIntervalMs: number;
}

/** The `Datastore` of the memory and SQLite backends: the same semantics over either engine. */
export function createEngineDatastore(options: EngineDatastoreOptions): Datastore {
  const runner = new EngineRunner(options.engine, options.pollIntervalMs);
  return {
    kind: options.kind,
    ipPools: resourceStore<IPPool>(runner, 'ipPool'),
    ipReservations: resourceStore<IPReservation>(runner, 'ipReservation'),
    nodes: resourceStore<Node>(runner, 'node'),
    namespaces: resourceStore<Namespace>(runner, 'namespace'),
    blocks: blockStore(runner),
    affinities: affinityStore(runner),
    handles: handleStore(runner),
    ipamConfig: ipamConfigStore(runner),
    transact: (body) => engineTransact(runner, body),
    // Labels exist only in Kubernetes; these backends index the host column directly.
    upgradeHost: () => runner.read(() => undefined),
    close: () => runner.close(),
  };
}
