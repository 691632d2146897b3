import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotFoundError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { collectEvents, sampleHandle } from '@ipamkit/test-utils';
import { createMemoryDatastore } from '../src/memory/index.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';

const cleanups = cleanupsAfterEach();

const backends: [string, () => Datastore][] = [
  ['memory', () => createMemoryDatastore()],
  [
    'sqlite',
    () => {
      const tmp = tempDir('tx-reads');
      cleanups.push(tmp.remove);
      return createSqliteDatastore({ path: join(tmp.dir, 'ipam.db'), pollIntervalMs: 20 });
    },
  ],
];

function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  if (ds.transact === undefined) throw new Error('the backend has no transactions');
  return ds.transact(body);
}

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
};

describe.each(backends)('transaction reads on %s', (_name, open) => {
  function ds(): Datastore {
    const store = open();
    cleanups.push(() => store.close());
    return store;
  }

  it('reject a missing object with the NotFoundError a store read throws, without a stack trace', async () => {
    const store = ds();
    const outside = (await rejection(store.handles.get('missing'))) as NotFoundError;
    const inside = (await rejection(transact(store, (tx) => tx.handles.get('missing')))) as NotFoundError;
    expect(inside).toBeInstanceOf(NotFoundError);
    expect(inside.name).toBe('NotFoundError');
    expect(inside.category).toBe('state');
    expect(inside.message).toBe(outside.message);
    expect(inside.identifier).toBe(outside.identifier);
    expect(inside.stack).toBe(`NotFoundError: ${outside.message}`);
    expect(outside.stack?.split('\n').length).toBeGreaterThan(1);
    const config = (await rejection(transact(store, (tx) => tx.ipamConfig.get()))) as NotFoundError;
    expect(config).toBeInstanceOf(NotFoundError);
    expect(config.message).toBe('resource does not exist: ipamConfig default');
  });

  it('keep the stack trace limit as it was', async () => {
    const store = ds();
    const limit = Error.stackTraceLimit;
    await rejection(transact(store, (tx) => tx.blocks.get('10.9.9.0/30')));
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('return copies: mutating what a transaction read or wrote leaves the stored values unchanged', async () => {
    const store = ds();
    const abort = new AbortController();
    const events = collectEvents(store.handles.watch({ fromRevision: '0', signal: abort.signal }), 2, 5_000);
    const handle = sampleHandle('h1');
    await transact(store, (tx) => {
      tx.write({ kind: 'handle', op: 'create', value: handle });
      return Promise.resolve();
    });
    handle.block['10.9.9.9/30'] = 9;
    const read = await transact(store, (tx) => tx.handles.get('h1'));
    read.block['10.8.8.8/30'] = 8;
    await store.handles.update({ ...(await store.handles.get('h1')), block: { '10.0.0.0/30': 2 } });
    expect((await events).map((e) => (e.type === 'deleted' ? undefined : e.object.block))).toEqual([{ '10.0.0.0/30': 1 }, { '10.0.0.0/30': 2 }]);
    abort.abort();
    expect((await store.handles.get('h1')).block).toEqual({ '10.0.0.0/30': 2 });
  });
});

describe.each(backends)('the IPAMConfig store on %s', (_name, open) => {
  it('rejects a missing config with its NotFoundError, without a stack trace', async () => {
    const store = open();
    cleanups.push(() => store.close());
    const err = (await rejection(store.ipamConfig.get())) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('resource does not exist: ipamConfig default');
    expect(err.stack).toBe('NotFoundError: resource does not exist: ipamConfig default');
  });
});
