// The engine prepares each statement on its first use and keeps it (design/ipam-datastore.md,
// "Statements prepared on first use"): a plugin call pays for the few it runs, not for all of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NotFoundError } from '@ipamkit/models';
import { sampleBlock } from '@ipamkit/test-utils';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createSqliteDatastore } from '../src/sqlite/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-prepared-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

it('prepares a statement on its first use, once, and none for kinds never touched', async () => {
  const path = join(dir, 'ipam.db');
  // The file and its schema first, so the opening below finds the schema current.
  await createSqliteDatastore({ path }).close();
  const prepare = vi.spyOn(Database.prototype, 'prepare');
  const ds = createSqliteDatastore({ path, walTruncatePages: 64 });
  try {
    const atOpen = prepare.mock.calls.length;
    // Opening reads the schema version; it prepares none of the engine's forty-odd statements.
    expect(atOpen).toBeLessThanOrEqual(2);
    await expect(ds.blocks.get('10.0.0.0/26')).rejects.toBeInstanceOf(NotFoundError);
    const afterFirstGet = prepare.mock.calls.length;
    expect(afterFirstGet).toBeGreaterThan(atOpen);
    await expect(ds.blocks.get('10.0.0.64/26')).rejects.toBeInstanceOf(NotFoundError);
    expect(prepare.mock.calls.length).toBe(afterFirstGet);
    await ds.blocks.create(sampleBlock('10.0.0.0/26'));
    expect((await ds.blocks.get('10.0.0.0/26')).cidr).toBe('10.0.0.0/26');
    const sql = prepare.mock.calls.map(([text]) => text);
    // Statements of the block table only, each text once.
    expect(sql.filter((text) => /\b(handles|affinities|ip_pools|nodes)\b/.test(text))).toEqual([]);
    expect(new Set(sql).size).toBe(sql.length);
  } finally {
    await ds.close();
  }
});
