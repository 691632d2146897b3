import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { WatchExpiredError, type Datastore } from '@ipamkit/models';
import { collectEvents, sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { migrate } from '../src/sqlite/schema.js';
import { encodeValue } from '../src/sqlite/row-codec.js';
import { cleanupsAfterEach } from './support/temp-dir.js';

// design/ipam-datastore.md, "Values stored once": a logged write keeps its value in its change-log
// entry only, and the global revision is the log's highest.
describe('SQLite values stored once', () => {
  const cleanups = cleanupsAfterEach();

  const dbPath = (): string => cleanups.dbPath('sqlite-values-once');

  function open(path: string, changeLogRetention?: number): Datastore {
    const ds = createSqliteDatastore({ path, pollIntervalMs: 20, ...(changeLogRetention === undefined ? {} : { changeLogRetention }) });
    cleanups.push(() => ds.close());
    return ds;
  }

  function raw(path: string): Database.Database {
    const db = new Database(path, { readonly: true });
    db.defaultSafeIntegers(true);
    cleanups.push(() => {
      db.close();
    });
    return db;
  }

  const stored = (db: Database.Database, table: string, key: string): { revision: bigint; value: string } | undefined =>
    db.prepare(`SELECT revision, value FROM ${table} WHERE key = ?`).get(key) as { revision: bigint; value: string } | undefined;
  const logged = (db: Database.Database, revision: bigint): { kind: string; type: string; value: string } | undefined =>
    db.prepare('SELECT kind, type, value FROM changes WHERE revision = ?').get(revision) as { kind: string; type: string; value: string } | undefined;

  it('keeps a written value in its change-log entry only, and every revision of it for watchers', async () => {
    const path = dbPath();
    const ds = open(path);
    const created = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const updated = await ds.blocks.update({ ...created, affinity: { type: 'host' as const, host: 'node-b' } });

    const db = raw(path);
    const row = stored(db, 'blocks', '10.0.0.0/30');
    expect(row).toEqual({ revision: BigInt(updated.revision), value: '' });
    const { revision: _r, uid: _u, ...content } = updated;
    expect(logged(db, BigInt(updated.revision))).toEqual({ kind: 'block', type: 'modified', value: encodeValue(content as Record<string, unknown>) });

    // Every reader sees the value, from another connection too.
    expect(await ds.blocks.get('10.0.0.0/30')).toEqual(updated);
    expect(await open(path).blocks.list()).toEqual([updated]);
    // The superseded value is still the one its event carries.
    const events = await collectEvents(ds.blocks.watch({ fromRevision: '0' }), 2, 20_000);
    expect(events.map((e) => (e.type === 'deleted' ? e.previous : e.object))).toEqual([created, updated]);
  });

  it("logs a delete's and a soft delete's last value by copying the stored text", async () => {
    const path = dbPath();
    const ds = open(path);
    const handle = await ds.handles.create(sampleHandle('h1'));
    await ds.handles.delete(handle);
    const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const softDeleted = await ds.blocks.update({ ...block, deleted: true });

    const db = raw(path);
    const deletedEntry = (revision: bigint): unknown => db.prepare("SELECT value, value_revision FROM changes WHERE revision = ? AND type = 'deleted'").get(revision);
    expect(deletedEntry(BigInt(handle.revision) + 1n)).toEqual({ value: logged(db, BigInt(handle.revision))?.value, value_revision: BigInt(handle.revision) });
    expect(deletedEntry(BigInt(softDeleted.revision))).toEqual({ value: logged(db, BigInt(block.revision))?.value, value_revision: BigInt(block.revision) });
    // The soft-deleted row keeps its own (new) value inline: no entry carries it.
    expect(stored(db, 'blocks', '10.0.0.0/30')?.value).toContain('"deleted":true');
    const handleEvents = await collectEvents(ds.handles.watch({ fromRevision: '0' }), 2, 20_000);
    expect(handleEvents.map((e) => (e.type === 'deleted' ? e.previous : e.object))).toEqual([handle, handle]);
    const blockEvents = await collectEvents(ds.blocks.watch({ fromRevision: '0' }), 2, 20_000);
    expect(blockEvents.map((e) => [e.type, e.type === 'deleted' ? e.previous?.revision : e.object.revision])).toEqual([
      ['added', block.revision],
      ['deleted', block.revision],
    ]);
  });

  it('writes with no statement that fills a temporary table (a delete reads the stored text, then logs it)', async () => {
    // design/ipam-datastore.md, "Deletes logged without a temporary table": an `INSERT INTO changes
    // … SELECT` that reads `changes` makes SQLite copy the selected row into a temporary table first.
    const path = dbPath();
    const ds = open(path);
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    let sources: string[];
    let handle, block, other;
    try {
      handle = await ds.handles.create(sampleHandle('h1'));
      await ds.handles.delete(handle);
      block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      await ds.blocks.update({ ...block, deleted: true });
      other = await ds.blocks.create(sampleBlock('10.0.1.0/30'));
      await ds.blocks.delete(other);
      sources = prepare.mock.calls.map((call) => call[0]);
    } finally {
      prepare.mockRestore();
    }
    const writes = [...new Set(sources)].filter((sql) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql));
    expect(writes.some((sql) => sql.startsWith('INSERT INTO changes'))).toBe(true);
    expect(writes.some((sql) => sql.startsWith('DELETE FROM handles'))).toBe(true);
    const db = raw(path);
    for (const sql of writes) {
      const params = new Array<null>((sql.match(/\?/g) ?? []).length).fill(null);
      const opcodes = (db.prepare(`EXPLAIN ${sql}`).all(...params) as { opcode: string }[]).map((r) => r.opcode);
      expect({ sql, temporaryTable: opcodes.includes('OpenEphemeral') }).toEqual({ sql, temporaryTable: false });
    }
    // Each delete's entry is still the stored text of the last value, at that value's revision.
    const deletedEntry = (revision: bigint): unknown => db.prepare("SELECT value, value_revision FROM changes WHERE revision = ? AND type = 'deleted'").get(revision);
    for (const deleted of [handle, other]) {
      expect(deletedEntry(BigInt(deleted.revision) + 1n)).toEqual({ value: logged(db, BigInt(deleted.revision))?.value, value_revision: BigInt(deleted.revision) });
    }
  });

  it('gives a soft-deleted create a revision of its own that no watch reports', async () => {
    const path = dbPath();
    const ds = open(path);
    const hidden = await ds.handles.create({ ...sampleHandle('gone'), deleted: true });
    const after = await ds.handles.create(sampleHandle('h1'));
    expect(BigInt(after.revision)).toBe(BigInt(hidden.revision) + 1n);
    // Stored inline (no entry carries it), its revision kept by an entry of no kind.
    const db = raw(path);
    expect(stored(db, 'handles', 'gone')?.value).not.toBe('');
    expect(logged(db, BigInt(hidden.revision))).toEqual({ kind: '', type: 'hidden', value: '' });
    // A reopened file continues above it; the watch sees only the live create.
    const again = open(path);
    expect((await again.handles.listWithRevision()).revision).toBe(after.revision);
    const events = await collectEvents(again.handles.watch({ fromRevision: '0' }), 1, 20_000);
    expect(events.map((e) => `${e.type}:${e.key}:${e.revision}`)).toEqual([`added:h1:${after.revision}`]);
  });

  it('hands a row its value back before compaction prunes the entry holding it', async () => {
    const path = dbPath();
    const ds = open(path, 10);
    const idle = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const recent = await ds.blocks.create(sampleBlock('10.0.0.4/30'));
    // Compaction runs in the write that takes revision 1024: it prunes up to 1014.
    let busy = await ds.handles.create(sampleHandle('busy'));
    while (BigInt(busy.revision) < 1019n) busy = await ds.handles.update({ ...busy, block: { '10.0.0.0/30': Number(busy.revision) % 3 } });
    const recentNow = await ds.blocks.update({ ...recent, affinity: { type: 'host' as const, host: 'node-c' } });
    while (BigInt(busy.revision) < 1024n) busy = await ds.handles.update({ ...busy, block: { '10.0.0.0/30': Number(busy.revision) % 3 } });

    const db = raw(path);
    expect(stored(db, 'blocks', '10.0.0.0/30')?.value).toBe(encodeValue(sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>));
    expect(logged(db, BigInt(idle.revision))).toBeUndefined();
    expect(stored(db, 'blocks', '10.0.0.4/30')?.value).toBe('');
    expect(await ds.blocks.list()).toEqual([idle, recentNow]);
    await expect(collectEvents(ds.blocks.watch({ fromRevision: '0' }), 1, 20_000)).rejects.toThrow(WatchExpiredError);
    const events = await collectEvents(ds.blocks.watch({ fromRevision: '1014' }), 1, 20_000);
    expect(events.map((e) => e.type === 'deleted' ? e.previous : e.object)).toEqual([recentNow]);
  });

  it('reads the change log for a watch by revision, its primary key, with no index by kind to maintain', () => {
    const path = dbPath();
    open(path);
    const db = raw(path);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'changes_by_kind'").get()).toBeUndefined();
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM changes WHERE kind = 'block' AND revision > 5 ORDER BY revision LIMIT 512").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('; ')).toMatch(/SEARCH changes USING INTEGER PRIMARY KEY \(rowid>\?\)/);
  });

  it('migrates a version-2 file: rows keep their values and revisions continue above the counter', async () => {
    const path = dbPath();
    const db = new Database(path);
    cleanups.push(() => {
      db.close();
    });
    migrate(db, 2);
    db.prepare('UPDATE revision_counter SET value = 41 WHERE id = 0').run();
    db.prepare('INSERT INTO handles (key, revision, deleted, host, type, ip_version, value) VALUES (?, 40, 0, NULL, NULL, NULL, ?)').run(
      'old',
      encodeValue(sampleHandle('old') as unknown as Record<string, unknown>),
    );
    const ds = open(path);
    expect(await ds.handles.get('old')).toEqual({ ...sampleHandle('old'), revision: '40' });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'revision_counter'").get()).toBeUndefined();
    expect((await ds.handles.create(sampleHandle('new'))).revision).toBe('42');
  });
});
