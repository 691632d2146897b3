import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertPluginBuilt, CNI_DIST } from './install-cni-helpers.js';

// The single executable the image ships (design/cli.md, "Single executable"), exec'd as an
// operator or the DaemonSet's install-cni step does: no node, no node_modules; SQLite through the
// addon beside it.
const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const SEA = join(PACKAGE, 'dist', 'ipamkit');
const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string };

const POOL = `apiVersion: projectcalico.org/v3
kind: IPPool
metadata:
  name: sea-pool
spec:
  cidr: 10.77.0.0/16
  blockSize: 26
`;

describe('the ipamkit single executable', () => {
  let dir: string;
  let db: string;
  beforeAll(() => {
    expect(existsSync(SEA), `${SEA} missing: build the package first`).toBe(true);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-sea-'));
    db = join(dir, 'ipam.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function ipamkit(args: readonly string[], input?: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(SEA, args, { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', ...env }, ...(input === undefined ? {} : { input }) });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }
  const onSqlite = (args: readonly string[]): string[] => ['--datastore', 'sqlite', '--sqlite-path', db, ...args];

  it('answers --version and --help', () => {
    expect(ipamkit(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    const help = ipamkit(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: ipamkit');
  });

  it('creates a pool from stdin on SQLite, lists it, and shows it in ipam show', () => {
    expect(ipamkit(onSqlite(['create', '-f', '-']), POOL)).toEqual({ status: 0, stdout: "Successfully created 1 'IPPool' resource(s)\n", stderr: '' });
    const got = ipamkit(onSqlite(['get', 'ippools']));
    expect(got.status).toBe(0);
    expect(got.stdout).toContain('sea-pool');
    const shown = ipamkit(onSqlite(['ipam', 'show']));
    expect(shown.stderr).toBe('');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('10.77.0.0/16');
  });

  it('runs install-cni as the DaemonSet does, the plugin taken from IPAMKIT_PLUGIN_DIR: copies the plugin, writes the conflist, creates the node', () => {
    assertPluginBuilt();
    const binDir = join(dir, 'opt/cni/bin');
    const netDir = join(dir, 'etc/cni/net.d');
    const run = ipamkit(onSqlite(['install-cni', '--bin-dir', binDir, '--net-dir', netDir, '--service-account-dir', join(dir, 'none'), '--node-name', 'node-a']), undefined, { IPAMKIT_PLUGIN_DIR: CNI_DIST });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('created node node-a');
    for (const name of ['calico-ipam', 'better_sqlite3.node']) expect(readFileSync(join(binDir, name)).equals(readFileSync(join(CNI_DIST, name))), name).toBe(true);
    expect(JSON.parse(readFileSync(join(netDir, '10-calico.conflist'), 'utf8'))).toMatchObject({ plugins: [{ type: 'ptp', datastore_type: 'sqlite', sqlite_path: db }] });
  });
});
