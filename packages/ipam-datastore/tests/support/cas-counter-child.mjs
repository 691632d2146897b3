// A child process of the multi-process CAS test: increments one handle's block count `iterations`
// times by read-modify-write, retrying whenever the write loses (ConflictError) or the store is
// briefly unavailable. Uses the BUILT package (dist/), exactly as a CNI invocation would.
//
//   node cas-counter-child.mjs '<DatastoreConfig JSON>' <handleId> <blockCidr> <iterations> [store|transact|optimistic]
//
// `transact` reads and writes the handle inside one `transact` body instead of two store calls;
// `optimistic` does so on SQLite with `optimisticTransactions` (the body reads without the write
// lock and is validated at commit: design/ipam-datastore.md, "Optimistic transactions").
// e.g. '{"type":"sqlite","path":"/tmp/x.db"}' or '{"type":"etcd","endpoints":["http://127.0.0.1:2379"]}'.
// Prints one JSON line {"increments":N,"retries":M} and exits 0; on failure prints to stderr, exits 1.
import { isTransient } from '@ipamkit/models';
import { createDatastore } from '../../dist/index.js';
import { createSqliteDatastore } from '../../dist/sqlite.js';

const [configJson, handleId, cidr, iterationsText, mode = 'store'] = process.argv.slice(2);
if (configJson === undefined || handleId === undefined || cidr === undefined || iterationsText === undefined) {
  process.stderr.write('usage: cas-counter-child.mjs <config-json> <handleId> <blockCidr> <iterations>\n');
  process.exit(2);
}
const iterations = Number(iterationsText);
const config = JSON.parse(configJson);
const datastore = mode === 'optimistic' ? createSqliteDatastore({ path: config.path, optimisticTransactions: true }) : await createDatastore(config);
let retries = 0;
try {
  for (let i = 0; i < iterations; i++) {
    for (;;) {
      try {
        if (mode === 'transact' || mode === 'optimistic') {
          await datastore.transact(async (tx) => {
            const handle = await tx.handles.get(handleId);
            const count = handle.block[cidr] ?? 0;
            tx.write({ op: 'update', kind: 'handle', value: { ...handle, block: { ...handle.block, [cidr]: count + 1 } } });
          });
        } else {
          const handle = await datastore.handles.get(handleId);
          const count = handle.block[cidr] ?? 0;
          await datastore.handles.update({ ...handle, block: { ...handle.block, [cidr]: count + 1 } });
        }
        break;
      } catch (err) {
        if (!isTransient(err)) throw err;
        retries++;
      }
    }
  }
  process.stdout.write(`${JSON.stringify({ increments: iterations, retries })}\n`);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await datastore.close();
}
