import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeMissingPackagePreload } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { NODE, tempDir } from './fixtures.js';

// The backends' libraries are optional peers (design/tunnel-alloc.md, "Single executable"): the
// node bin run under a strict install without better-sqlite3 must say which package to install.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('ipamkit-tunnel-alloc without the SQLite library installed', () => {
  it('fails --run-once on SQLite with an error naming better-sqlite3', () => {
    const dir = tempDir();
    const run = spawnSync(process.execPath, ['--require', writeMissingPackagePreload(dir, 'better-sqlite3'), BIN, '--run-once'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', NODENAME: NODE, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: join(dir, 'ipam.db') },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm install better-sqlite3');
  }, 90_000);
});
