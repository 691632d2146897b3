import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { assertDistIsFresh } from './support/run-cas-children.js';
import { tempDir } from './support/temp-dir.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const PAGE_BYTES = 4096 + 24;
const TRUNCATE_PAGES = 8;

function walBytes(path: string): number {
  return statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * One short-lived process as a CNI call is: opens the file, commits a few writes, and exits without
 * closing, so SQLite never runs its checkpoint-on-close.
 */
function shortLivedWriter(path: string, n: number, walTruncatePages: number | undefined): void {
  const script = `
    const { createDatastore } = await import(${JSON.stringify(DIST)});
    const ds = await createDatastore(${JSON.stringify({ type: 'sqlite', path, ...(walTruncatePages === undefined ? {} : { walTruncatePages }) })});
    for (let i = 0; i < 4; i++) await ds.nodes.create({ name: 'node-${n}-' + i });
    process.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
}

describe('SQLite WAL of processes that exit without closing', () => {
  const cleanups: (() => void)[] = [];
  beforeAll(() => {
    assertDistIsFresh();
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  function freshFile(): string {
    const tmp = tempDir('sqlite-wal');
    cleanups.push(tmp.remove);
    return join(tmp.dir, 'ipam.db');
  }

  it('grows with every process by default: nothing checkpoints it', { timeout: 120_000 }, () => {
    const path = freshFile();
    const sizes: number[] = [];
    for (let n = 0; n < 12; n++) {
      shortLivedWriter(path, n, undefined);
      sizes.push(walBytes(path));
    }
    expect(sizes[11]).toBeGreaterThan(sizes[5] ?? 0);
    expect(sizes[11]).toBeGreaterThan(TRUNCATE_PAGES * 2 * PAGE_BYTES);
  });

  it('stays short with walTruncatePages: a commit that takes it past the limit truncates it', { timeout: 120_000 }, () => {
    const path = freshFile();
    for (let n = 0; n < 12; n++) {
      shortLivedWriter(path, n, TRUNCATE_PAGES);
      // At most the limit plus what one process's commits add after the last truncation.
      expect(walBytes(path)).toBeLessThan(2 * TRUNCATE_PAGES * PAGE_BYTES);
    }
    // Nothing lost: every process's writes are there.
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM nodes WHERE deleted = 0').get()).toEqual({ n: 48 });
    } finally {
      db.close();
    }
  });

  it('leaves the WAL to a later commit, without waiting, while another connection reads', async () => {
    const path = freshFile();
    const ds = createSqliteDatastore({ path, walTruncatePages: 1 });
    const reader = new Database(path, { readonly: true });
    try {
      await ds.nodes.create({ name: 'first' });
      expect(walBytes(path)).toBe(0);
      // A read transaction pins the WAL: a TRUNCATE checkpoint would have to wait for it.
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT COUNT(*) FROM nodes').get();
      await ds.nodes.create({ name: 'second' });
      expect(walBytes(path)).toBeGreaterThan(0);
      reader.prepare('COMMIT').run();
      await ds.nodes.create({ name: 'third' });
      expect(walBytes(path)).toBe(0);
      expect((await ds.nodes.list()).map((n) => n.name).sort()).toEqual(['first', 'second', 'third']);
    } finally {
      reader.close();
      await ds.close();
    }
  });

  it('refuses a limit that is not a positive integer', () => {
    const path = freshFile();
    expect(() => createSqliteDatastore({ path, walTruncatePages: 0 })).toThrow(/walTruncatePages must be a positive integer/);
  });
});
