import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { collectEvents, sampleHandle } from '@ipamkit/test-utils';
import type { KindName } from '../src/engine/kinds.js';
import type { RowEngine, StoredRow } from '../src/engine/row-engine.js';
import { TxRowMemo } from '../src/engine/tx-row-memo.js';
import { createMemoryDatastore } from '../src/memory/index.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';

const cleanups = cleanupsAfterEach();

/** A row engine over a map that counts its `getRow` calls. */
function countingEngine(): { engine: RowEngine; gets: () => number } {
  const rows = new Map<string, StoredRow>();
  let gets = 0;
  let revision = 0n;
  const id = (kind: KindName, key: string): string => `${kind}/${key}`;
  const unused = (): never => {
    throw new Error('not used by TxRowMemo');
  };
  const engine: RowEngine = {
    beginRead: unused,
    endRead: unused,
    beginWrite: unused,
    commit: unused,
    rollback: unused,
    getRow: (kind, key) => {
      gets++;
      return rows.get(id(kind, key));
    },
    listRows: () => [...rows.values()],
    listRowsPage: unused,
    stampRows: unused,
    putRow: (kind, row) => {
      rows.set(id(kind, row.key), row);
    },
    removeRow: (kind, key) => {
      rows.delete(id(kind, key));
    },
    bumpRevision: () => ++revision,
    currentRevision: () => revision,
    changesSince: unused,
    compactedRevision: unused,
    translateError: (err) => err,
    close: unused,
  };
  return { engine, gets: () => gets };
}

describe('TxRowMemo', () => {
  it('answers the CAS checks of rows the body read or wrote without reading them again', () => {
    const { engine, gets } = countingEngine();
    engine.putRow('handle', { key: 'h1', revision: 5n, value: { handleId: 'h1', block: {} } });
    const memo = new TxRowMemo(engine);
    expect(memo.reading.getRow('handle', 'h1')?.revision).toBe(5n);
    expect(memo.reading.getRow('handle', 'absent')).toBeUndefined();
    expect(gets()).toBe(2);

    expect(memo.applying.getRow('handle', 'h1')?.revision).toBe(5n);
    expect(memo.applying.getRow('handle', 'absent')).toBeUndefined();
    expect(gets()).toBe(2);

    memo.applying.putRow('handle', { key: 'absent', revision: 6n, value: { handleId: 'absent', block: {}, deleted: true } }, true);
    expect(memo.applying.getRow('handle', 'absent')).toMatchObject({ revision: 6n, softDeleted: true });
    memo.applying.removeRow('handle', 'h1', 7n);
    expect(memo.applying.getRow('handle', 'h1')).toBeUndefined();
    expect(gets()).toBe(2);

    // A row never seen is read; a known row's value is read only when asked for.
    expect(memo.applying.getRow('handle', 'other')).toBeUndefined();
    expect(gets()).toBe(3);
    expect(memo.applying.getRow('handle', 'absent')?.value).toEqual({ handleId: 'absent', block: {}, deleted: true });
    expect(gets()).toBe(4);
  });
});

const backends: [string, () => Datastore][] = [
  ['memory', () => createMemoryDatastore()],
  [
    'sqlite',
    () => {
      const tmp = tempDir('tx-writes');
      cleanups.push(tmp.remove);
      return createSqliteDatastore({ path: join(tmp.dir, 'ipam.db'), pollIntervalMs: 20 });
    },
  ],
];

function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  if (ds.transact === undefined) throw new Error('the backend has no transactions');
  return ds.transact(body);
}

describe.each(backends)('transaction writes on %s', (_name, open) => {
  function ds(): Datastore {
    const store = open();
    cleanups.push(() => store.close());
    return store;
  }

  it('check a write of a row the body read against the revision it read', async () => {
    const store = ds();
    const created = await store.handles.create(sampleHandle('h1'));
    const updated = await store.handles.update({ ...created, block: { '10.0.0.0/30': 2 } });
    const stale = transact(store, async (tx) => {
      await tx.handles.get('h1');
      tx.write({ op: 'update', kind: 'handle', value: { ...created, block: { '10.0.0.0/30': 3 } } });
    });
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    expect(await store.handles.get('h1')).toEqual(updated);
  });

  it('tell watchers the last value of a row the body read and deleted', async () => {
    const store = ds();
    const abort = new AbortController();
    const events = collectEvents(store.handles.watch({ fromRevision: '0', signal: abort.signal }), 3, 5_000);
    const created = await store.handles.create(sampleHandle('h1'));
    const updated = await store.handles.update({ ...created, block: { '10.0.0.0/30': 2 } });
    await transact(store, async (tx) => {
      const read = await tx.handles.get('h1');
      tx.write({ op: 'delete', kind: 'handle', value: read });
    });
    const deleted = (await events)[2];
    abort.abort();
    expect(deleted?.type).toBe('deleted');
    expect(deleted?.type === 'deleted' ? deleted.previous : undefined).toEqual(updated);
  });

  it('give every write of a transaction the next revision, and a rolled-back one none', async () => {
    const store = ds();
    const base = BigInt((await store.handles.create(sampleHandle('base'))).revision);
    await expect(
      transact(store, (tx) => {
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('lost') });
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('base') });
        return Promise.resolve();
      }),
    ).rejects.toThrow();
    await transact(store, (tx) => {
      for (const id of ['a', 'b', 'c']) tx.write({ op: 'create', kind: 'handle', value: sampleHandle(id) });
      return Promise.resolve();
    });
    const revisions = await Promise.all(['a', 'b', 'c'].map(async (id) => BigInt((await store.handles.get(id)).revision)));
    expect(revisions).toEqual([base + 1n, base + 2n, base + 3n]);
    expect(BigInt((await store.handles.create(sampleHandle('d'))).revision)).toBe(base + 4n);
  });
});
