import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMissingPackagePreload } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netConf } from './helpers/cni-call.js';
import { assertBinBuilt, BIN, pluginEnv, spawnCollect } from './helpers/spawn-bin.js';

// The backends' libraries are optional peers (design/cni.md, "Start-up cost"): the `.cjs` bundle
// run under a strict install without better-sqlite3 must say which package to install.
describe('the .cjs bundle without the SQLite library installed', () => {
  let dir: string;
  beforeAll(() => {
    assertBinBuilt();
    dir = mkdtempSync(join(tmpdir(), 'cni-missing-backend-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails an ADD on SQLite with an error naming better-sqlite3', async () => {
    const preload = writeMissingPackagePreload(dir, 'better-sqlite3');
    const conf = netConf({ datastore_type: 'sqlite', sqlite_path: join(dir, 'ipam.db'), ipam_lock_file: join(dir, 'ipam.lock') });
    const env = pluginEnv({ CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c1', CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni' });
    const res = await spawnCollect(process.execPath, ['--require', preload, BIN], env, JSON.stringify(conf));
    expect(res.code).not.toBe(0);
    expect(res.stdout).toContain('npm install better-sqlite3');
  }, 60_000);
});
