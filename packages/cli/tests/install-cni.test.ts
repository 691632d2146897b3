import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { assertPluginBuilt, CNI_DIST, runInstallCni } from './install-cni-helpers.js';

const TOKEN = 'sa-token-that-must-never-be-printed';

let root: string;
let binDir: string;
let netDir: string;
let saDir: string;
let dbPath: string;

function sqliteArgs(extra: readonly string[] = []): string[] {
  return ['--datastore', 'sqlite', '--sqlite-path', dbPath, 'install-cni', '--bin-dir', binDir, '--net-dir', netDir, '--plugin-dir', CNI_DIST, '--service-account-dir', saDir, '--node-name', 'node-a', ...extra];
}

function conflist(): { name: string; plugins: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(join(netDir, '10-calico.conflist'), 'utf8')) as { name: string; plugins: Record<string, unknown>[] };
}

beforeAll(() => assertPluginBuilt());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ipamkit-install-cni-'));
  binDir = join(root, 'opt/cni/bin');
  netDir = join(root, 'etc/cni/net.d');
  saDir = join(root, 'serviceaccount');
  dbPath = join(root, 'ipam.db');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ipamkit install-cni on SQLite, into temp directories', () => {
  it('installs the executable and addon, writes the conflist, initialises the database and creates the node', async () => {
    const run = await runInstallCni(sqliteArgs());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const name of ['calico-ipam', 'better_sqlite3.node']) {
      expect(readFileSync(join(binDir, name)).equals(readFileSync(join(CNI_DIST, name)))).toBe(true);
    }
    expect(statSync(join(binDir, 'calico-ipam')).mode & 0o777).toBe(0o755);
    const list = conflist();
    expect(list.plugins).toEqual([
      expect.objectContaining({ type: 'ptp', nodename: 'node-a', datastore_type: 'sqlite', sqlite_path: dbPath, ipam: { type: 'calico-ipam', gateways: ['169.254.1.1'], routes: [] } }),
    ]);
    // No service account here: no kubeconfig is written.
    expect(readdirSync(netDir)).toEqual(['10-calico.conflist']);
    const ds = await createDatastore({ type: 'sqlite', path: dbPath });
    try {
      expect((await ds.nodes.list()).map((n) => n.name)).toEqual(['node-a']);
    } finally {
      await ds.close();
    }
    expect(run.stdout).toContain('created node node-a');
  });

  it('a second run changes nothing, says so, and leaves every file (inode included) in place', async () => {
    expect((await runInstallCni(sqliteArgs())).code).toBe(0);
    const files = [join(binDir, 'calico-ipam'), join(binDir, 'better_sqlite3.node'), join(netDir, '10-calico.conflist')];
    const before = files.map((f) => ({ ino: statSync(f).ino, mtime: statSync(f).mtimeMs }));
    const again = await runInstallCni(sqliteArgs());
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing changed/);
    expect(again.stdout).not.toMatch(/^wrote /m);
    expect(files.map((f) => ({ ino: statSync(f).ino, mtime: statSync(f).mtimeMs }))).toEqual(before);
  });

  it('replaces a changed file by rename (new inode) and leaves no temp file behind', async () => {
    mkdirSync(binDir, { recursive: true });
    writeFileSync(join(binDir, 'calico-ipam'), 'an old plugin');
    const oldInode = statSync(join(binDir, 'calico-ipam')).ino;
    expect((await runInstallCni(sqliteArgs())).code).toBe(0);
    expect(statSync(join(binDir, 'calico-ipam')).ino).not.toBe(oldInode);
    expect(readFileSync(join(binDir, 'calico-ipam')).equals(readFileSync(join(CNI_DIST, 'calico-ipam')))).toBe(true);
    // Only the complete files exist: no `.name.*.tmp` left in either directory.
    expect(readdirSync(binDir).sort()).toEqual(['better_sqlite3.node', 'calico-ipam']);
    expect(readdirSync(netDir)).toEqual(['10-calico.conflist']);
  });

  it('patches an existing conflist: calico-ipam becomes the IPAM, the other plugins and keys stay', async () => {
    mkdirSync(netDir, { recursive: true });
    const existing = {
      cniVersion: '0.4.0',
      name: 'my-net',
      plugins: [
        { type: 'bridge', bridge: 'cni0', ipam: { type: 'host-local', ranges: [[{ subnet: '10.1.0.0/16' }]], routes: [] } },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    };
    writeFileSync(join(netDir, '10-calico.conflist'), JSON.stringify(existing));
    expect((await runInstallCni(sqliteArgs())).code).toBe(0);
    expect(conflist()).toEqual({
      ...existing,
      plugins: [
        { type: 'bridge', bridge: 'cni0', nodename: 'node-a', datastore_type: 'sqlite', sqlite_path: dbPath, ipam: { type: 'calico-ipam', ranges: [[{ subnet: '10.1.0.0/16' }]], routes: [] } },
        existing.plugins[1],
      ],
    });
    expect((await runInstallCni(sqliteArgs())).stdout).toMatch(/nothing changed/);
  });

  it('an unparsable conflist fails clearly before anything is installed', async () => {
    mkdirSync(netDir, { recursive: true });
    writeFileSync(join(netDir, '10-calico.conflist'), '{ not json');
    const run = await runInstallCni(sqliteArgs());
    // Bad input, nothing written: the usage status of design/cli.md "Exit codes".
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/10-calico\.conflist is not valid JSON/);
    expect(() => readdirSync(binDir)).toThrow(/ENOENT/);
  });

  it('a missing plugin directory names the missing file and installs nothing', async () => {
    const run = await runInstallCni([...sqliteArgs(), '--plugin-dir', join(root, 'nowhere')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(root, 'nowhere', 'calico-ipam'));
    expect(() => readdirSync(netDir)).toThrow(/ENOENT/);
  });

  it('takes the plugin from IPAMKIT_PLUGIN_DIR when --plugin-dir is not given', async () => {
    const args = sqliteArgs().filter((a, i, all) => a !== '--plugin-dir' && all[i - 1] !== '--plugin-dir');
    const run = await runInstallCni(args, { IPAMKIT_PLUGIN_DIR: CNI_DIST });
    expect(run.code).toBe(0);
    expect(readFileSync(join(binDir, 'calico-ipam')).equals(readFileSync(join(CNI_DIST, 'calico-ipam')))).toBe(true);
  });
});

describe('ipamkit install-cni on etcd', () => {
  it('points the plugin at the endpoints, prefix and TLS files, never at the password, and opens no datastore', async () => {
    const run = await runInstallCni(
      ['--datastore', 'etcd', '--etcd-endpoints', 'https://10.0.0.1:2379', '--etcd-prefix', '/ipamkit', '--etcd-ca-cert-file', '/etc/etcd/ca.pem', '--etcd-username', 'ipamkit', 'install-cni', '--bin-dir', binDir, '--net-dir', netDir, '--plugin-dir', CNI_DIST, '--service-account-dir', saDir, '--node-name', 'node-e'],
      { ETCD_PASSWORD: 'etcd-secret-password' },
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const text = readFileSync(join(netDir, '10-calico.conflist'), 'utf8');
    expect(conflist().plugins[0]).toMatchObject({ nodename: 'node-e', datastore_type: 'etcdv3', etcd_endpoints: 'https://10.0.0.1:2379', etcd_prefix: '/ipamkit', etcd_ca_cert_file: '/etc/etcd/ca.pem' });
    expect(text).not.toContain('etcd-secret-password');
    expect(run.stdout).not.toMatch(/node node-e/);
  });
});

describe('ipamkit install-cni on the Kubernetes datastore, from a service account', () => {
  beforeEach(() => {
    mkdirSync(saDir, { recursive: true });
    writeFileSync(join(saDir, 'token'), `${TOKEN}\n`);
    writeFileSync(join(saDir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  });

  const args = (): string[] => ['--datastore', 'kubernetes', 'install-cni', '--bin-dir', binDir, '--net-dir', netDir, '--plugin-dir', CNI_DIST, '--service-account-dir', saDir, '--node-name', 'node-k'];

  it('writes a 0600 kubeconfig with the token and CA inline, and points the conflist at it; the token is never printed', async () => {
    const run = await runInstallCni(args(), { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const path = join(netDir, 'calico-kubeconfig');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const kubeconfig = parse(readFileSync(path, 'utf8')) as { clusters: { cluster: Record<string, string> }[]; users: { user: { token: string } }[] };
    expect(kubeconfig.clusters[0]?.cluster).toEqual({ server: 'https://[fd00::1]:6443', 'certificate-authority-data': readFileSync(join(saDir, 'ca.crt')).toString('base64') });
    expect(kubeconfig.users[0]?.user.token).toBe(TOKEN);
    expect(conflist().plugins[0]).toMatchObject({ datastore_type: 'kubernetes', nodename: 'node-k', kubernetes: { kubeconfig: path } });
    expect(run.stdout).not.toContain(TOKEN);
  });

  it('a rotated token rewrites only the kubeconfig', async () => {
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    expect((await runInstallCni(args(), env)).code).toBe(0);
    writeFileSync(join(saDir, 'token'), 'rotated-token');
    const run = await runInstallCni(args(), env);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('wrote '))).toEqual([`wrote ${join(netDir, 'calico-kubeconfig')}`]);
    expect(run.stdout).not.toContain('rotated-token');
  });

  it('without KUBERNETES_SERVICE_HOST it fails clearly and writes nothing', async () => {
    const run = await runInstallCni(args(), {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/KUBERNETES_SERVICE_HOST is not set/);
    expect(run.stderr).not.toContain(TOKEN);
    expect(() => readdirSync(netDir)).toThrow(/ENOENT/);
  });
});
