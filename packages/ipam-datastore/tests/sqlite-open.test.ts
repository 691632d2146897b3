import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { DatastoreUnavailableError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { createDatastore } from '../src/create-datastore.js';
import { DatastoreConfigError } from '../src/errors.js';
import { createSqliteDatastore, DatastoreReadOnlyError, type SqliteDatastoreOptions } from '../src/sqlite/index.js';
import { appliedVersions, migrate } from '../src/sqlite/schema.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';
import { holdWriteLock } from './support/write-lock-holder.js';

// design/ipam-datastore.md, "Opening a file" and "Read-only opens".
describe('opening a SQLite datastore', () => {
  const cleanups = cleanupsAfterEach();

  function tmpDir(): string {
    const tmp = tempDir('sqlite-open');
    cleanups.push(tmp.remove);
    return tmp.dir;
  }

  function open(options: SqliteDatastoreOptions): Datastore {
    const ds = createSqliteDatastore({ pollIntervalMs: 20, ...options });
    cleanups.push(() => ds.close());
    return ds;
  }

  /** A current database holding one handle, closed again. */
  async function seeded(): Promise<string> {
    const path = join(tmpDir(), 'ipam.db');
    const ds = createSqliteDatastore({ path });
    await ds.handles.create({ handleId: 'h1', block: { '10.0.0.0/26': 1 }, deleted: false });
    await ds.close();
    return path;
  }

  function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
    if (ds.transact === undefined) throw new Error('the sqlite backend has transactions');
    return ds.transact(body);
  }

  async function lockedByAnotherProcess(path: string): Promise<void> {
    const holder = await holdWriteLock(path);
    cleanups.push(() => holder.release());
  }

  it('opens a current file and reads while another process holds the write lock (no DDL, no write lock)', async () => {
    const path = await seeded();
    await lockedByAnotherProcess(path);
    // A short busy timeout: an open that asked for the write lock would fail with SQLITE_BUSY.
    const ds = open({ path, busyTimeoutMs: 100 });
    expect((await ds.handles.get('h1')).block).toEqual({ '10.0.0.0/26': 1 });
    // Writes still queue behind the other process's lock (busy timeout), as before.
    await expect(ds.handles.create({ handleId: 'h2', block: {}, deleted: false })).rejects.toBeInstanceOf(DatastoreUnavailableError);
  });

  it('opens a current file with reads only: no exec, no DDL, no write statement, no journal-mode change', async () => {
    const path = await seeded();
    const executed: string[] = [];
    // The unwrapped method, called with each connection as `this` below.
    const prepare = Reflect.get(Database.prototype, 'prepare') as (this: Database.Database, sql: string) => Database.Statement;
    const exec = vi.spyOn(Database.prototype, 'exec');
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    // Every statement prepared through the connection records its SQL when it runs.
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      const stmt = prepare.call(this, sql);
      const run = (method: 'run' | 'get' | 'all') => {
        const original = stmt[method].bind<(...args: unknown[]) => unknown>(stmt);
        return (...args: unknown[]): unknown => {
          executed.push(sql.trim());
          return original(...args);
        };
      };
      return Object.assign(stmt, { run: run('run'), get: run('get'), all: run('all') });
    });
    cleanups.push(() => {
      spy.mockRestore();
      exec.mockRestore();
      pragma.mockRestore();
    });
    const ds = open({ path });
    await ds.handles.get('h1');
    expect(exec).not.toHaveBeenCalled();
    expect(pragma.mock.calls.map(([source]) => source)).toEqual(['journal_mode', 'synchronous = NORMAL']);
    expect(executed.length).toBeGreaterThan(0);
    expect(executed.filter((sql) => !/^(SELECT|BEGIN$|COMMIT$)/.test(sql))).toEqual([]);
  });

  it('still migrates an old file when opened read-write', () => {
    const path = join(tmpDir(), 'ipam.db');
    const db = new Database(path);
    migrate(db, 1);
    db.close();
    open({ path });
    const check = new Database(path, { readonly: true });
    cleanups.push(() => {
      check.close();
    });
    expect(appliedVersions(check)).toEqual([1, 2, 3]);
  });

  describe('read-only', () => {
    it('refuses a missing file and creates neither the file nor its directory', () => {
      const dir = join(tmpDir(), 'absent-dir');
      const path = join(dir, 'ipam.db');
      expect(() => open({ path, readonly: true })).toThrow(DatastoreConfigError);
      expect(() => open({ path, readonly: true })).toThrow(`no ipamkit database at ${path}`);
      expect(existsSync(path)).toBe(false);
      expect(existsSync(dir)).toBe(false);
    });

    it('refuses a missing file in an existing directory without creating it', () => {
      const path = join(tmpDir(), 'ipam.db');
      expect(() => open({ path, readonly: true })).toThrow(`no ipamkit database at ${path}`);
      expect(existsSync(path)).toBe(false);
    });

    it('refuses, through createDatastore, a missing file without creating it', async () => {
      const path = join(tmpDir(), 'ipam.db');
      await expect(createDatastore({ type: 'sqlite', path, readonly: true })).rejects.toThrow(`no ipamkit database at ${path}`);
      expect(existsSync(path)).toBe(false);
    });

    it('refuses a file without the schema, and one with an old schema, and migrates neither', () => {
      const empty = join(tmpDir(), 'empty.db');
      new Database(empty).close();
      expect(() => open({ path: empty, readonly: true })).toThrow(/is not an ipamkit database \(no schema\)/);

      const old = join(tmpDir(), 'old.db');
      const db = new Database(old);
      migrate(db, 1);
      expect(() => open({ path: old, readonly: true })).toThrow(/has schema version 1, older than this build's 3: open it read-write once/);
      expect(appliedVersions(db)).toEqual([1]);
      db.close();
    });

    it('reads while another process holds a write transaction, and sees only committed rows', async () => {
      const path = await seeded();
      await lockedByAnotherProcess(path);
      const ds = await createDatastore({ type: 'sqlite', path, readonly: true });
      cleanups.push(() => ds.close());
      expect((await ds.handles.get('h1')).block).toEqual({ '10.0.0.0/26': 1 });
      const { items, revision } = await ds.handles.listWithRevision();
      expect(items.map((h) => h.handleId)).toEqual(['h1']);
      // The holder's uncommitted entry 1,000 revisions on is invisible.
      expect(Number(revision)).toBeLessThan(1000);
    });

    it('refuses every write with DatastoreReadOnlyError and leaves the file unchanged', async () => {
      const path = await seeded();
      const ds = open({ path, readonly: true });
      const h1 = await ds.handles.get('h1');
      let bodyRan = false;
      const writes: Promise<unknown>[] = [
        ds.handles.create({ handleId: 'h2', block: {}, deleted: false }),
        ds.handles.update({ ...h1, block: {} }),
        ds.handles.delete(h1),
        ds.ipPools.delete('p'),
        transact(ds, () => {
          bodyRan = true;
          return Promise.resolve();
        }),
      ];
      for (const w of writes) {
        await expect(w).rejects.toBeInstanceOf(DatastoreReadOnlyError);
        await expect(w).rejects.toThrow(`the sqlite datastore at ${path} was opened read-only: writes are refused`);
      }
      expect(bodyRan).toBe(false);
      expect((await ds.handles.list()).map((h) => [h.handleId, h.revision])).toEqual([['h1', h1.revision]]);
    });
  });
});
