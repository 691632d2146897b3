import type { Datastore } from '@ipamkit/models';
import { createEngineDatastore } from '../engine/engine-datastore.js';
import { MemoryEngine } from './memory-engine.js';

export interface MemoryDatastoreOptions {
  /** Change-log entries kept for watches (default 100 000). */
  readonly changeLogRetention?: number;
  /** Upper bound on how long an idle watch waits before re-checking (default 1 000 ms). */
  readonly pollIntervalMs?: number;
}

/** A process-local datastore with the same semantics as the persistent ones (revisions, watch, transact). */
export function createMemoryDatastore(options: MemoryDatastoreOptions = {}): Datastore {
  const engine = new MemoryEngine({ changeLogRetention: options.changeLogRetention ?? 100_000 });
  return createEngineDatastore({ kind: 'memory', engine, pollIntervalMs: options.pollIntervalMs ?? 1_000 });
}
