import { symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Datastore, DatastoreTx } from '@ipamkit/models';
import { registeredWriterMutexes } from '../src/sqlite/file-writer-mutex.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach } from './support/temp-dir.js';

// design/ipam-datastore.md, "One writer per file in a process": every handle on one file in this
// process shares one writer mutex, so a handle starting a write waits asynchronously instead of
// blocking the event loop in SQLite's busy handler while another handle's transact body awaits.
const CIDR = '10.0.0.0/26';

describe('several SQLite handles on one file in one process', () => {
  const cleanups = cleanupsAfterEach();

  const dbPath = (): string => cleanups.dbPath('sqlite-handles');

  function open(path: string): Datastore {
    const ds = createSqliteDatastore({ path });
    cleanups.push(() => ds.close());
    return ds;
  }

  /**
   * Every handle runs one transact body at once: read the counter, await the event loop (timers),
   * write it plus one. Returns the value each body read and the order bodies began and ended.
   */
  async function raceTransactions(handles: readonly Datastore[]): Promise<{ seen: number[]; log: string[] }> {
    const [first] = handles;
    if (first === undefined) throw new Error('no handles');
    await first.handles.create({ handleId: 'counter', block: { [CIDR]: 0 }, deleted: false });
    const log: string[] = [];
    const seen = await Promise.all(
      handles.map((ds, i) =>
        transact(ds, async (tx) => {
          log.push(`begin ${i}`);
          const counter = await tx.handles.get('counter');
          await sleep(5);
          const value = counter.block[CIDR] ?? -1;
          tx.write({ op: 'update', kind: 'handle', value: { ...counter, block: { [CIDR]: value + 1 } } });
          log.push(`end ${i}`);
          return value;
        }),
      ),
    );
    return { seen, log };
  }

  function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
    if (ds.transact === undefined) throw new Error('the sqlite backend has transactions');
    return ds.transact(body);
  }

  const serialLog = (n: number): string[] => Array.from({ length: n }, (_, i) => [`begin ${i}`, `end ${i}`]).flat();

  for (const n of [2, 4]) {
    it(`runs ${n} overlapping transact bodies of ${n} handles one after the other, all committed`, async () => {
      const path = dbPath();
      const handles = Array.from({ length: n }, () => open(path));
      const { seen, log } = await raceTransactions(handles);
      expect(seen).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(log).toEqual(serialLog(n));
      for (const ds of handles) expect((await ds.handles.get('counter')).block[CIDR]).toBe(n);
    });
  }

  it('shares the mutex between an absolute path, a symlink and a relative path to the same file', async () => {
    const before = registeredWriterMutexes();
    const path = dbPath();
    const link = join(path, '..', 'link.db');
    const absolute = open(path);
    symlinkSync(path, link);
    const handles = [absolute, open(link), open(relative(process.cwd(), path)), open(`./${relative(process.cwd(), path)}`)];
    expect(registeredWriterMutexes()).toBe(before + 1);
    const { seen, log } = await raceTransactions(handles);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(log).toEqual(serialLog(4));
  });

  it('makes a single-object write of another handle wait for a transact body instead of failing', async () => {
    const path = dbPath();
    const a = open(path);
    const b = open(path);
    await a.handles.create({ handleId: 'h', block: {}, deleted: false });
    let bodyDone = false;
    const body = transact(a, async (tx) => {
      const h = await tx.handles.get('h');
      await sleep(20);
      tx.write({ op: 'update', kind: 'handle', value: { ...h, block: { [CIDR]: 1 } } });
      bodyDone = true;
    });
    // Started while the body holds the write transaction; runs after it commits.
    const created = b.handles.create({ handleId: 'other', block: {}, deleted: false }).then((h) => ({ h, bodyDone }));
    await body;
    const { h, bodyDone: afterBody } = await created;
    expect(afterBody).toBe(true);
    expect(h.handleId).toBe('other');
    expect((await b.handles.get('h')).block).toEqual({ [CIDR]: 1 });
  });

  it('releases the file from the registry when its last handle closes', async () => {
    const before = registeredWriterMutexes();
    const path = dbPath();
    const a = createSqliteDatastore({ path });
    const b = createSqliteDatastore({ path });
    const readonly = createSqliteDatastore({ path, readonly: true });
    expect(registeredWriterMutexes()).toBe(before + 1);
    await a.close();
    expect(registeredWriterMutexes()).toBe(before + 1);
    await b.close();
    expect(registeredWriterMutexes()).toBe(before);
    // A closed handle's second close releases nothing more; the read-only handle never took a place.
    await a.close();
    await readonly.close();
    expect(registeredWriterMutexes()).toBe(before);
  });
});
