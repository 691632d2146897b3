import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeMissingPackagePreload } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The backends' libraries are optional peers (design/cli.md, "Single executable"): the node bin run
// under a strict install without better-sqlite3 must say which package to install.
const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

describe('the ipamkit bin without the SQLite library installed', () => {
  let dir: string;
  beforeAll(() => {
    expect(existsSync(BIN), `${BIN} missing: build the package first`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-missing-backend-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a create on SQLite with an error naming better-sqlite3, and writes no database', () => {
    const db = join(dir, 'ipam.db');
    const pool = 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: p\nspec:\n  cidr: 10.1.0.0/16\n';
    const run = spawnSync(process.execPath, ['--require', writeMissingPackagePreload(dir, 'better-sqlite3'), BIN, '--datastore', 'sqlite', '--sqlite-path', db, 'create', '-f', '-'], { input: pool, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('the sqlite datastore needs the package better-sqlite3, which is not installed: add it to your dependencies (npm install better-sqlite3)');
    expect(existsSync(db)).toBe(false);
  }, 90_000);
});
