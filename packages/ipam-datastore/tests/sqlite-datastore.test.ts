import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatastoreUnavailableError, ValidationError, type Datastore } from '@ipamkit/models';
import { collectEvents, describeEvent, sampleAffinity, sampleBlock } from '@ipamkit/test-utils';
import { SchemaVersionError } from '../src/errors.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { appliedVersions, migrate, SCHEMA_VERSION } from '../src/sqlite/schema.js';
import { cleanupsAfterEach } from './support/temp-dir.js';

describe('createSqliteDatastore', () => {
  const cleanups = cleanupsAfterEach();

  const dbPath = (): string => cleanups.dbPath('sqlite');

  function open(path: string, options: { busyTimeoutMs?: number } = {}): Datastore {
    const ds = createSqliteDatastore({ path, pollIntervalMs: 20, ...options });
    cleanups.push(() => ds.close());
    return ds;
  }

  function raw(path: string, timeout = 5_000): Database.Database {
    const db = new Database(path, { timeout });
    cleanups.push(() => {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    });
    return db;
  }

  it('creates the database file readable and writable by its owner only (0600)', () => {
    const path = dbPath();
    open(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('runs in WAL mode and records every schema version it applied', () => {
    const path = dbPath();
    open(path);
    const db = raw(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(appliedVersions(db)).toEqual([1, 2, 3]);
    expect(SCHEMA_VERSION).toBe(3);
  });

  it('migrates a version-1 file forward and keeps its rows', async () => {
    const path = dbPath();
    const db = raw(path);
    migrate(db, 1);
    expect(appliedVersions(db)).toEqual([1]);
    db.prepare("UPDATE revision_counter SET value = 7 WHERE id = 0").run();
    db.prepare("INSERT INTO affinities (key, revision, deleted, host, type, ip_version, value) VALUES (?, 7, 0, 'node-a', 'host', 4, ?)").run(
      'host/node-a/10.0.0.0/30',
      JSON.stringify(sampleAffinity('node-a', '10.0.0.0/30')),
    );
    const ds = open(path);
    expect(appliedVersions(db)).toEqual([1, 2, 3]);
    const listed = await ds.affinities.list({ host: 'node-a' });
    expect(listed).toEqual([{ ...sampleAffinity('node-a', '10.0.0.0/30'), revision: '7' }]);
    expect((await ds.blocks.create(sampleBlock('10.0.0.0/30'))).revision).toBe('8');
  });

  it('lists host-scoped affinities through the host index', () => {
    const path = dbPath();
    open(path);
    const plan = raw(path)
      .prepare("EXPLAIN QUERY PLAN SELECT key FROM affinities WHERE deleted = 0 AND host = 'node-a' AND ip_version = 4 ORDER BY key")
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('; ')).toContain('affinities_by_host');
  });

  it('refuses a file written by a newer schema with SchemaVersionError', () => {
    const path = dbPath();
    open(path);
    raw(path).prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(SCHEMA_VERSION + 1, 'future');
    expect(() => createSqliteDatastore({ path })).toThrow(SchemaVersionError);
  });

  it('turns SQLITE_BUSY into DatastoreUnavailableError and writes nothing', async () => {
    const path = dbPath();
    const ds = open(path, { busyTimeoutMs: 0 });
    const other = raw(path);
    other.exec('BEGIN IMMEDIATE');
    const err: unknown = await ds.handles.create({ handleId: 'h', block: {}, deleted: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatastoreUnavailableError);
    expect((err as Error).message).toContain('SQLITE_BUSY');
    other.exec('ROLLBACK');
    expect(await ds.handles.list()).toEqual([]);
    expect((await ds.handles.create({ handleId: 'h', block: {}, deleted: false })).handleId).toBe('h');
  });

  it('holds the write lock for the whole transact body', async () => {
    const path = dbPath();
    const ds = open(path);
    const other = raw(path, 0);
    const seen = await ds.transact!(async (tx) => {
      await tx.blocks.list();
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
        return 'other writer got in';
      } catch (err) {
        return (err as { code?: string }).code;
      }
    });
    expect(seen).toBe('SQLITE_BUSY');
  });

  it('refuses a malformed block with ValidationError and stores nothing', async () => {
    const ds = open(dbPath());
    const bad = { ...sampleBlock('10.0.0.0/30'), sequenceNumber: 5 as unknown as bigint };
    await expect(ds.blocks.create(bad)).rejects.toBeInstanceOf(ValidationError);
    await expect(ds.blocks.update({ ...sampleBlock('10.0.0.0/30'), revision: 'not-a-revision' })).rejects.toBeInstanceOf(ValidationError);
    expect(await ds.blocks.list()).toEqual([]);
    expect((await ds.blocks.listWithRevision()).revision).toBe('0');
  });

  it('delivers a write made by another connection to a watch', { timeout: 30_000 }, async () => {
    const path = dbPath();
    const watcher = open(path);
    const writer = open(path);
    const { revision } = await watcher.blocks.listWithRevision();
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    const pending = collectEvents(watcher.blocks.watch({ fromRevision: revision, signal: abort.signal }), 2, 20_000);
    const created = await writer.blocks.create(sampleBlock('10.0.0.0/30'));
    await writer.blocks.delete(created);
    expect((await pending).map(describeEvent)).toEqual(['added:10.0.0.0/30', 'deleted:10.0.0.0/30']);
  });
});
