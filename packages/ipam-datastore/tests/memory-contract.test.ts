import { runDatastoreContract } from '@ipamkit/test-utils';
import { createEngineDatastore } from '../src/engine/engine-datastore.js';
import { KINDS, type KindName } from '../src/engine/kinds.js';
import { MemoryEngine } from '../src/memory/memory-engine.js';

runDatastoreContract('memory', () => {
  const engine = new MemoryEngine({ changeLogRetention: 10_000 });
  const datastore = createEngineDatastore({ kind: 'memory', engine, pollIntervalMs: 1_000 });
  return Promise.resolve({
    datastore,
    cleanup: () => datastore.close(),
    // Plants the row straight into the engine, as a half-finished delete by another writer would leave it.
    injectSoftDeleted: ({ kind, value }) => {
      const k: KindName = kind;
      const v = structuredClone(value) as unknown as Record<string, unknown>;
      engine.beginWrite();
      engine.putRow(k, { key: KINDS[k].keyOf(v), revision: engine.bumpRevision(), value: v });
      engine.commit();
      return Promise.resolve();
    },
  });
});
