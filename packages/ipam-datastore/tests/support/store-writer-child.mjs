// A child process of the optimistic-transaction tests: another writer on the same SQLite file, in
// another process (so no writer mutex of the test's process is shared). Uses the BUILT package.
//
//   fork('store-writer-child.mjs', [path])
//
// Each message { store, method, args } calls `datastore[store][method](...args)` and is answered
// with { ok: true, result } or { ok: false, error }. 'close' closes the datastore and exits.
import { createSqliteDatastore } from '../../dist/sqlite.js';

const [path] = process.argv.slice(2);
const datastore = createSqliteDatastore({ path });
process.on('message', async (message) => {
  if (message === 'close') {
    await datastore.close();
    process.disconnect();
    return;
  }
  try {
    const result = await datastore[message.store][message.method](...message.args);
    process.send({ ok: true, result: result ?? null });
  } catch (err) {
    process.send({ ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
});
process.send({ ready: true });
