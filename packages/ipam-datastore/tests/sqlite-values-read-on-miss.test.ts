import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { DecodedValueCache } from '../src/sqlite/decoded-value-cache.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach } from './support/temp-dir.js';

function transact(ds: Datastore, body: (tx: DatastoreTx) => Promise<void>): Promise<void> {
  if (ds.transact === undefined) throw new Error('SQLite offers transact');
  return ds.transact(body);
}

// design/ipam-datastore.md, "Values read only on a miss": a read by key of a row whose revision the
// decode cache holds reads no value, and a revision a rolled-back write took is never served.
describe('SQLite values read only on a miss', () => {
  const cleanups = cleanupsAfterEach();

  function open(path: string): Datastore {
    const ds = createSqliteDatastore({ path, pollIntervalMs: 20 });
    cleanups.push(() => ds.close());
    return ds;
  }

  /** Rewrites the log entry that holds the row's value at `revision`, behind every datastore's back. */
  function spoilLoggedValue(path: string, revision: string): void {
    const db = new Database(path);
    try {
      expect(db.prepare("UPDATE changes SET value = '{not json' WHERE revision = ?").run(BigInt(revision)).changes).toBe(1);
    } finally {
      db.close();
    }
  }

  it('reads a row at the revision it wrote without reading its value, by key and in a transaction', async () => {
    const path = cleanups.dbPath('sqlite-read-on-miss');
    const ds = open(path);
    const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const handle = await ds.handles.create(sampleHandle('h1'));
    spoilLoggedValue(path, block.revision);
    spoilLoggedValue(path, handle.revision);
    // The values live in the spoiled entries only; a read that looked at them would fail to parse.
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(block);
    expect(await ds.handles.get('h1')).toEqual(handle);
    await transact(ds, async (tx) => {
      expect(await tx.blocks.get('10.0.0.0/30')).toEqual(block);
      expect(await tx.handles.get('h1')).toEqual(handle);
    });
    // A reader without the value memoised reads the entry, and fails on what it finds there.
    const other = open(path);
    await expect(other.blocks.get('10.0.0.0/30')).rejects.toThrow();
  });

  it('reads the value of a row another connection wrote since, and of a row rewritten in place', async () => {
    const path = cleanups.dbPath('sqlite-read-on-miss');
    const ds = open(path);
    const other = open(path);
    const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const updated = await other.blocks.update({ ...block, allocations: [0, null, null, null], unallocated: [1, 2, 3] });
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(updated);
    // A row that holds its value inline, rewritten without a new revision, is read with its value.
    const { revision, ...value } = updated;
    const db = new Database(path);
    db.prepare('UPDATE blocks SET value = ? WHERE key = ?').run(JSON.stringify({ ...value, sequenceNumber: 0, sequenceNumberForAllocation: {}, allocations: [null, null, null, 0] }), '10.0.0.0/30');
    db.close();
    const read = await ds.blocks.get('10.0.0.0/30');
    expect(read.revision).toBe(revision);
    expect(read.allocations).toEqual([null, null, null, 0]);
  });

  it('reads a row whose value compaction handed back from its own column, by key and in a transaction', async () => {
    const path = cleanups.dbPath('sqlite-read-on-miss');
    const ds = createSqliteDatastore({ path, pollIntervalMs: 20, changeLogRetention: 10 });
    cleanups.push(() => ds.close());
    const idle = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(idle);
    // Compaction runs in the write that takes revision 1024 and prunes the idle block's entry.
    let busy = await ds.handles.create(sampleHandle('busy'));
    while (BigInt(busy.revision) < 1024n) busy = await ds.handles.update({ ...busy, block: { '10.0.0.0/30': Number(busy.revision) % 3 } });
    const db = new Database(path, { readonly: true });
    try {
      db.defaultSafeIntegers(true);
      expect(db.prepare('SELECT 1 FROM changes WHERE revision = ?').get(BigInt(idle.revision))).toBeUndefined();
      expect(db.prepare('SELECT value FROM blocks WHERE key = ?').pluck().get('10.0.0.0/30')).not.toBe('');
    } finally {
      db.close();
    }
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(idle);
    await transact(ds, async (tx) => {
      expect(await tx.blocks.get('10.0.0.0/30')).toEqual(idle);
    });
  });

  it('never serves a value whose transaction rolled back, when another writer commits the same revision', async () => {
    const path = cleanups.dbPath('sqlite-read-on-miss');
    const ds = open(path);
    const other = open(path);
    const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    await ds.handles.create(sampleHandle('taken'));
    // The block's write applies (and is memoised at the next revision), then the handle's create fails: all rolls back.
    const rolledBack = transact(ds, async (tx) => {
      const read = await tx.blocks.get('10.0.0.0/30');
      tx.write({ op: 'update', kind: 'block', value: { ...read, allocations: [null, 0, null, null], unallocated: [0, 2, 3] } });
      tx.write({ op: 'create', kind: 'handle', value: sampleHandle('taken') });
    });
    await expect(rolledBack).rejects.toBeInstanceOf(AlreadyExistsError);
    // Another connection's write now takes the revision the rolled-back write had taken, with another value.
    const committed = await other.blocks.update({ ...block, allocations: [null, null, 0, null], unallocated: [0, 1, 3] });
    expect(BigInt(committed.revision)).toBe(BigInt(block.revision) + 2n);
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(committed);
    await transact(ds, async (tx) => {
      expect(await tx.blocks.get('10.0.0.0/30')).toEqual(committed);
    });
  });
});

describe('DecodedValueCache entries found by revision', () => {
  it('hand a seeded value over once, copy a decoded one, and stand for nothing once handed over', () => {
    const cache = new DecodedValueCache(4);
    cache.seed('node', 'a', '{"name":"a"}', { name: 'a' }, 7n);
    const entry = cache.byRevision('node', 'a');
    expect(entry?.revision).toBe(7n);
    if (entry === undefined) return;
    const taken = cache.fromEntry('node', 'a', entry, true);
    expect(taken).toEqual({ name: 'a' });
    // Its taker may change it: the entry is gone, and stands for nothing any more.
    expect(cache.byRevision('node', 'a')).toBeUndefined();
    expect(cache.fromEntry('node', 'a', entry, false)).toBeUndefined();
    cache.decode('node', 'b', '{"name":"b"}', 3n);
    const decoded = cache.byRevision('node', 'b');
    if (decoded === undefined) throw new Error('decoded entry missing');
    const copy = cache.fromEntry('node', 'b', decoded, true);
    expect(copy).toEqual({ name: 'b' });
    expect(copy).not.toBe(decoded.value);
    expect(cache.byRevision('node', 'b')).toBe(decoded);
  });

  it('drop what a write transaction stored unless it commits', () => {
    const cache = new DecodedValueCache(4);
    cache.decode('node', 'kept', '{"name":"kept"}', 1n);
    cache.track();
    cache.seed('node', 'a', '{"name":"a"}', { name: 'a' }, 2n);
    cache.settle(false);
    expect(cache.byRevision('node', 'a')).toBeUndefined();
    expect(cache.byRevision('node', 'kept')?.revision).toBe(1n);
    cache.track();
    cache.seed('node', 'a', '{"name":"a"}', { name: 'a' }, 2n);
    cache.settle(true);
    expect(cache.byRevision('node', 'a')?.revision).toBe(2n);
  });
});
