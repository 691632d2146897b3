import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterAll, describe, expect, it } from 'vitest';
import { injectDuplicate } from './helpers/inject-duplicate.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');
const dir = mkdtempSync(join(tmpdir(), 'ipamkit-sim-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('ipamkit-sim bin', () => {
  it('runs a small cluster on the embedded default and exits 0 with the summary, table and verdict', () => {
    const r = sim(['run', '--nodes', '4', '--pods', '12', '--churn', '2', '--services', '2', '--grace-ms', '500']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('ipam show:');
    expect(r.stdout).toContain('| IP Pool  | 10.244.0.0/16');
    expect(r.stdout).toContain('0 leaked, 0 duplicated');
    expect(r.stdout).toContain('RESULT: OK');
    expect(r.status).toBe(0);
  });

  it('exits 1 and prints the violation when the datastore holds a duplicate allocation', async () => {
    const path = join(dir, 'dup.db');
    const ds = await createDatastore({ type: 'sqlite', path });
    await injectDuplicate(ds);
    await ds.close();
    const r = sim(['run', '--nodes', '4', '--pods', '8', '--churn', '1', '--services', '0', '--grace-ms', '500', '--sqlite-path', path]);
    expect(r.stdout).toContain('RESULT: FAILED');
    expect(r.stdout).toContain('duplicate allocation: 10.99.0.1 is held 2 times');
    expect(r.status).toBe(1);
  });

  it('rejects a bad flag with exit 2 and a typed message', () => {
    const r = sim(['run', '--nodes', 'many']);
    expect(r.stderr).toBe('ipamkit-sim: SimConfigError: --nodes must be a number, got "many"\n');
    expect(r.status).toBe(2);
  });
});
