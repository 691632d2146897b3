import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatastoreUnavailableError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { sampleAffinity, sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { DatastoreReadOnlyError } from '../src/errors.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { assertDistIsFresh } from './support/run-cas-children.js';
import { cleanupsAfterEach } from './support/temp-dir.js';

// A SQLite transaction body reads without the write lock, which it takes only to validate its
// reads and apply its writes (design/ipam-datastore.md, "Optimistic transactions"). Each case lets
// another process write between the body's reads and its commit, and checks that a body whose
// reads changed runs again (once, holding the lock) and commits what the fresh reads say, never
// what the stale ones said; and that a body whose reads did not change commits on its first run.

const WRITER_CHILD = fileURLToPath(new URL('./support/store-writer-child.mjs', import.meta.url));
const CIDR = '10.0.0.0/26';

const cleanups = cleanupsAfterEach();

beforeAll(() => {
  assertDistIsFresh();
});

/** Another process writing to the file through the built package's stores. */
type OtherProcess = (store: string, method: string, ...args: unknown[]) => Promise<unknown>;

async function otherProcess(path: string): Promise<OtherProcess> {
  const child: ChildProcess = fork(WRITER_CHILD, [path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  cleanups.push(() => {
    if (child.connected) child.send('close');
    else if (child.exitCode === null) child.kill();
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
  });
  return (store, method, ...args) =>
    new Promise((resolve, reject) => {
      child.once('message', (m: { ok: boolean; result?: unknown; error?: string }) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
      child.send({ store, method, args });
    });
}

function open(path: string, busyTimeoutMs?: number): Datastore {
  const ds = createSqliteDatastore({ path, optimisticTransactions: true, ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }) });
  cleanups.push(() => ds.close());
  return ds;
}

function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  if (ds.transact === undefined) throw new Error('sqlite has transact');
  return ds.transact(body);
}

/** Whether another connection can take the write lock right now. */
/** A fresh file with optimistic transactions on, and a second process writing to it. */
async function storeAndOtherProcess(): Promise<{ path: string; ds: Datastore; other: OtherProcess }> {
  const path = cleanups.dbPath('optimistic');
  const ds = open(path);
  return { path, ds, other: await otherProcess(path) };
}

/** The same, with handles `a` and `b` holding one address each (the counters the tests move). */
async function storeWithTwoCounters(): Promise<{ path: string; ds: Datastore; other: OtherProcess }> {
  const store = await storeAndOtherProcess();
  await store.ds.handles.create(sampleHandle('a', { [CIDR]: 1 }));
  await store.ds.handles.create(sampleHandle('b', { [CIDR]: 1 }));
  return store;
}

function lockIsFree(path: string): boolean {
  const db = new Database(path, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    return false;
  } finally {
    db.close();
  }
}

describe('sqlite optimistic transactions', () => {
  it('re-runs a body whose read by key another process changed, and writes from the fresh read', { timeout: 60_000 }, async () => {
    const { path, ds, other } = await storeWithTwoCounters();
    const seen: { a: number; b: number; lockFree: boolean }[] = [];
    await transact(ds, async (tx) => {
      const a = await tx.handles.get('a');
      // Another process changes both rows after this body read `a` and before its commit.
      if (seen.length === 0) {
        await other('handles', 'update', { ...a, block: { [CIDR]: 5 } });
        const b = (await other('handles', 'get', 'b')) as object;
        await other('handles', 'update', { ...b, block: { [CIDR]: 7 } });
      }
      const b = await tx.handles.get('b');
      seen.push({ a: a.block[CIDR] ?? 0, b: b.block[CIDR] ?? 0, lockFree: lockIsFree(path) });
      // Write skew: the body writes `b` from `a`, which it does not write.
      tx.write({ op: 'update', kind: 'handle', value: { ...b, block: { [CIDR]: (a.block[CIDR] ?? 0) + (b.block[CIDR] ?? 0) } } });
    });
    // The first run read without the lock, `a` before the change and `b` after it (1 + 7 would be
    // a state that never was); it commits nothing, and the second run reads holding the lock.
    expect(seen).toEqual([
      { a: 1, b: 7, lockFree: true },
      { a: 5, b: 7, lockFree: false },
    ]);
    expect((await ds.handles.get('b')).block[CIDR]).toBe(12);
  });

  it('re-runs a body without writes, or one that threw, whose reads another process changed', { timeout: 60_000 }, async () => {
    const { ds, other } = await storeWithTwoCounters();
    // Another process moves both counters from 1 to 2 in one step, between this body's two reads.
    const moveBoth = async (): Promise<void> => {
      for (const id of ['a', 'b']) {
        const h = (await other('handles', 'get', id)) as object;
        await other('handles', 'update', { ...h, block: { [CIDR]: 2 } });
      }
    };
    const sums: number[] = [];
    const sum = await transact(ds, async (tx) => {
      const a = await tx.handles.get('a');
      if (sums.length === 0) await moveBoth();
      const b = await tx.handles.get('b');
      sums.push((a.block[CIDR] ?? 0) + (b.block[CIDR] ?? 0));
      return sums.at(-1);
    });
    // 3 mixes the two states: never answered.
    expect(sums).toEqual([3, 4]);
    expect(sum).toBe(4);

    let runs = 0;
    const err = await transact(ds, async (tx) => {
      runs += 1;
      const a = await tx.handles.get('a');
      if (runs === 1) {
        const h = (await other('handles', 'get', 'a')) as object;
        await other('handles', 'update', { ...h, block: { [CIDR]: 3 } });
      }
      throw new Error(`a was ${String(a.block[CIDR])}`);
    }).catch((e: unknown) => e);
    expect(runs).toBe(2);
    expect((err as Error).message).toBe('a was 3');
  });

  it('re-runs a body that found a key absent when another process created it', { timeout: 60_000 }, async () => {
    const { ds, other } = await storeAndOtherProcess();
    let runs = 0;
    await transact(ds, async (tx) => {
      runs += 1;
      const found = await tx.handles.get('h').catch(() => undefined);
      if (runs === 1) await other('handles', 'create', sampleHandle('h', { [CIDR]: 10 }));
      tx.write(
        found === undefined
          ? { op: 'create', kind: 'handle', value: sampleHandle('h', { [CIDR]: 1 }) }
          : { op: 'update', kind: 'handle', value: { ...found, block: { [CIDR]: (found.block[CIDR] ?? 0) + 1 } } },
      );
    });
    expect(runs).toBe(2);
    expect((await ds.handles.get('h')).block[CIDR]).toBe(11);
  });

  it('re-runs a body whose list covered a row another process wrote', { timeout: 60_000 }, async () => {
    const { ds, other } = await storeAndOtherProcess();
    await ds.affinities.create(sampleAffinity('node-a', '10.0.0.0/26'));
    const counts: number[] = [];
    await transact(ds, async (tx) => {
      const mine = await tx.affinities.list({ host: 'node-a', type: 'host', ipVersion: 4 });
      if (counts.length === 0) await other('affinities', 'create', sampleAffinity('node-a', '10.0.1.0/26'));
      counts.push(mine.length);
      tx.write({ op: 'create', kind: 'handle', value: sampleHandle('count', { [CIDR]: mine.length }) });
    });
    expect(counts).toEqual([1, 2]);
    expect((await ds.handles.get('count')).block[CIDR]).toBe(2);
  });

  it('re-runs a body whose stamp covered a row another process wrote', { timeout: 60_000 }, async () => {
    const { ds, other } = await storeAndOtherProcess();
    await ds.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/16', blockSize: 26 });
    const stamps: string[] = [];
    await transact(ds, async (tx) => {
      stamps.push(await tx.stamps.get({ kind: 'ipPools' }));
      if (stamps.length === 1) await other('ipPools', 'create', { name: 'pool-b', cidr: '10.1.0.0/16', blockSize: 26 });
      tx.write({ op: 'create', kind: 'handle', value: sampleHandle('stamped') });
    });
    expect(stamps).toHaveLength(2);
    expect(stamps[1]).not.toBe(stamps[0]);
  });

  it('commits on the first run when others wrote only rows the body did not read', { timeout: 60_000 }, async () => {
    const { ds, other } = await storeAndOtherProcess();
    await ds.nodes.create({ name: 'node-a' });
    await ds.handles.create(sampleHandle('a'));
    let runs = 0;
    await transact(ds, async (tx) => {
      runs += 1;
      await tx.affinities.list({ host: 'node-a', type: 'host', ipVersion: 4 });
      await tx.stamps.get({ kind: 'affinities', host: 'node-a', type: 'host', ipVersion: 4 });
      await tx.stamps.get({ kind: 'node', name: 'node-a' });
      await tx.blocks.get(CIDR).catch(() => undefined);
      const a = await tx.handles.get('a');
      if (runs === 1) {
        // Another host's affinity, this host's IPv6 and virtual ones, another block, another handle, another node.
        await other('affinities', 'create', sampleAffinity('node-b', '10.0.1.0/26'));
        await other('affinities', 'create', sampleAffinity('node-a', 'fd00::/122'));
        await other('affinities', 'create', sampleAffinity('node-a', '10.0.2.0/26', 'virtual'));
        await other('blocks', 'create', sampleBlock('10.0.3.0/26', 'node-b'));
        await other('handles', 'create', sampleHandle('c'));
        await other('nodes', 'create', { name: 'node-b' });
      }
      tx.write({ op: 'update', kind: 'handle', value: { ...a, block: { [CIDR]: 2 } } });
    });
    expect(runs).toBe(1);
    expect((await ds.handles.get('a')).block[CIDR]).toBe(2);
    expect(await ds.handles.list()).toHaveLength(2);
  });

  it('re-runs when the change log cannot name a write since the snapshot', { timeout: 60_000 }, async () => {
    const path = cleanups.dbPath('optimistic');
    const ds = open(path);
    await ds.handles.create(sampleHandle('a'));
    let runs = 0;
    await transact(ds, async (tx) => {
      runs += 1;
      await tx.handles.get('a');
      if (runs === 1) {
        // A revision taken with no entry naming its row (as a soft-deleted create leaves one).
        const db = new Database(path);
        db.prepare("INSERT INTO changes (revision, kind, key, type, value, value_revision) SELECT max(revision) + 1, '', '', 'hidden', '', 0 FROM changes").run();
        db.close();
      }
      tx.write({ op: 'create', kind: 'handle', value: sampleHandle('b') });
    });
    expect(runs).toBe(2);
  });

  it('holds the write lock for the whole body without the option, and leaves it free with it', async () => {
    const bodyFindsLockFree = async (optimisticTransactions: boolean): Promise<boolean> => {
      const path = cleanups.dbPath('optimistic');
      const ds = createSqliteDatastore({ path, optimisticTransactions });
      cleanups.push(() => ds.close());
      return await transact(ds, async (tx) => {
        await tx.blocks.list();
        const free = lockIsFree(path);
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h') });
        return free;
      });
    };
    expect(await bodyFindsLockFree(false)).toBe(false);
    expect(await bodyFindsLockFree(true)).toBe(true);
  });

  it('refuses a transaction on a read-only handle before its body runs', async () => {
    const path = cleanups.dbPath('optimistic');
    open(path);
    const ds = createSqliteDatastore({ path, readonly: true, optimisticTransactions: true });
    cleanups.push(() => ds.close());
    let ran = false;
    const err = await transact(ds, () => {
      ran = true;
      return Promise.resolve();
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatastoreReadOnlyError);
    expect(ran).toBe(false);
  });

  it('runs a body without writes while another process holds the write lock, and a body with writes waits for it', async () => {
    const path = cleanups.dbPath('optimistic');
    const ds = open(path, 0);
    await ds.handles.create(sampleHandle('a'));
    const holder = new Database(path);
    cleanups.push(() => {
      holder.close();
    });
    holder.exec('BEGIN IMMEDIATE');
    try {
      const read = await transact(ds, async (tx) => (await tx.handles.get('a')).handleId);
      expect(read).toBe('a');
      const err = await transact(ds, (tx) => {
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('b') });
        return Promise.resolve();
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatastoreUnavailableError);
    } finally {
      holder.exec('ROLLBACK');
    }
    expect(await ds.handles.list()).toHaveLength(1);
  });
});
