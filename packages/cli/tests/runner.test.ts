import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_VERSION, datastoreConfigFromFlags, runIpamCommand } from '../src/index.js';
import { FakeClock, seedBase, Sink } from './fixtures.js';
import { golden } from './golden.js';
import { runCli } from './run-cli.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'dist', 'bin.js');
const run = promisify(execFile);

describe('runIpamCommand', () => {
  const clock = new FakeClock();

  it('prints an invalid --ip to stderr and exits 2 (usage)', async () => {
    const ds = await createDatastore({ type: 'memory' });
    expect(await runCli(['ipam', 'show', '--ip', '10.0.0.300'], ds, clock)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'invalid IP address specified: 10.0.0.300\n',
    });
  });

  it('reports releasing an unassigned address as an error', async () => {
    const ds = await createDatastore({ type: 'memory' });
    await seedBase(ds, clock);
    expect(await runCli(['ipam', 'release', '--ip', '10.0.0.99'], ds, clock)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'IP address 10.0.0.99 is not assigned\n',
    });
    expect(await runCli(['ipam', 'release', '--ip', '10.0.0.3'], ds, clock)).toEqual({
      code: 0,
      stdout: 'Successfully released IP address 10.0.0.3\n',
      stderr: '',
    });
  });

  it('does nothing for release without --ip or --from-report', async () => {
    const ds = await createDatastore({ type: 'memory' });
    expect(await runCli(['ipam', 'release'], ds, clock)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.each([
    [['ipam', 'show', '--show-configuration', '-o', 'json'], 'configuration'],
    [['ipam', 'show', '--show-borrowed', '-o', 'json'], 'borrowed'],
    [['ipam', 'explain', '--node', 'node-a', '-o', 'json'], 'node-a'],
    [['ipam', 'configure', '--ip-cooldown-seconds', '5', '-o', 'json'], 'IPCooldownSeconds'],
    [['ipam', 'check', '-o', 'json'], '0.1.0'],
  ])('writes JSON for %j', async (argv, marker) => {
    const ds = await createDatastore({ type: 'memory' });
    await seedBase(ds, clock);
    const result = await runCli(argv, ds, clock);
    expect(result.code).toBe(0);
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain(marker);
  });

  it('rejects an unknown output format and an unknown command', async () => {
    const ds = await createDatastore({ type: 'memory' });
    expect((await runCli(['ipam', 'show', '-o', 'yaml'], ds, clock)).stderr).toBe('unknown output format "yaml": use table or json\n');
    const unknown = await runCli(['ipam', 'frobnicate'], ds, clock);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('leaves a datastore it was given open', async () => {
    const ds = await createDatastore({ type: 'memory' });
    const sink = new Sink();
    expect(await runIpamCommand(['ipam', 'show'], { datastore: ds, clock, stdout: sink, stderr: sink })).toBe(0);
    expect(await ds.ipPools.list()).toEqual([]);
  });

  it('reports its version, equal to package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { version: string };
    expect(CLI_VERSION).toBe(pkg.version);
    const sink = new Sink();
    expect(await runIpamCommand(['--version'], { stdout: sink, stderr: sink })).toBe(0);
    expect(sink.text).toBe(`${pkg.version}\n`);
  });
});

describe('runIpamCommand error output', () => {
  it('redacts credentials a datastore or parser error carries before printing it', async () => {
    const secret = 'cli-canary-4f1e9a';
    const raw = `bad indentation\n  token: ${secret}\nGET http://root:${secret}@etcd:2379 Authorization: Bearer ${secret}\nwith ${secret} alone`;
    const ds = await createDatastore({ type: 'memory' });
    // Every store call fails with a third-party-style message quoting credentials.
    const failingStore = new Proxy({}, { get: () => () => Promise.reject(new Error(raw)) });
    const failing = new Proxy(ds, { get: (target, key, receiver) => (key === 'close' || key === 'kind' ? Reflect.get(target, key, receiver) : failingStore) });
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await runIpamCommand(['ipam', 'show'], { datastore: failing, clock: new FakeClock(), stdout, stderr, env: { ETCD_PASSWORD: secret } });
    await ds.close();
    expect(code).toBe(1);
    expect(stderr.text).toContain('[redacted]');
    expect(stderr.text).not.toContain(secret);
  });
});

describe('datastoreConfigFromFlags', () => {
  const V1 = 'crd.projectcalico.org/v1';
  it.each([
    [{}, {}, { type: 'kubernetes', apiGroup: V1 }],
    [{}, { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: '/env.db' }, { type: 'sqlite', path: '/env.db' }],
    [{ datastore: 'sqlite', sqlitePath: '/tmp/x.db' }, { IPAMKIT_SQLITE_PATH: '/env.db' }, { type: 'sqlite', path: '/tmp/x.db' }],
    [{ datastore: 'etcd', etcdEndpoints: 'http://a:2379, http://b:2379' }, {}, { type: 'etcd', endpoints: ['http://a:2379', 'http://b:2379'] }],
    [
      { datastore: 'etcdv3', etcdCaCertFile: '/ca', etcdCertFile: '/crt', etcdKeyFile: '/key', etcdUsername: 'root', etcdPrefix: '/p' },
      { ETCD_ENDPOINTS: 'https://e:2379', ETCD_PASSWORD: 'pw', ETCD_USERNAME: 'ignored' },
      { type: 'etcd', endpoints: ['https://e:2379'], prefix: '/p', tls: { caFile: '/ca', certFile: '/crt', keyFile: '/key' }, username: 'root', password: 'pw' },
    ],
    [{ datastore: 'kubernetes', kubeconfig: '/k' }, { CALICO_API_GROUP: 'projectcalico.org/v3' }, { type: 'kubernetes', kubeconfig: '/k', apiGroup: 'projectcalico.org/v3' }],
  ])('maps %j with env %j to %j', (flags, env, expected) => {
    expect(datastoreConfigFromFlags(flags, env)).toEqual(expected);
  });

  it.each([
    [{ datastore: 'etcd' }, 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY'],
    [{ datastore: 'mysql' }, '--datastore must be one of etcdv3, kubernetes, sqlite, memory; got "mysql"'],
    [{ etcdEndpoints: 'https://e:1', etcdUsername: 'root' }, '--etcd-username is set but ETCD_PASSWORD is not'],
    [{ etcdEndpoints: 'https://root:pw-canary@e:1' }, 'etcd endpoint 1 of --etcd-endpoints carries user info (user:password@); give the credentials in ETCD_USERNAME and ETCD_PASSWORD instead'],
  ])('refuses %j', (flags, message) => {
    expect(() => datastoreConfigFromFlags(flags, {})).toThrow(message);
  });
});

describe('the ipamkit bin', () => {
  let dir: string;
  let path: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-bin-'));
    path = join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path });
    await seedBase(ds, new FakeClock());
    await ds.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows pools from the SQLite file named by its flags', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--datastore', 'sqlite', '--sqlite-path', path, 'ipam', 'show'], { timeout: 60_000 });
    expect(stdout).toBe(golden('show-pools.txt', stdout));
  });

  it('takes the datastore from the environment and exits 2 on a bad argument', async () => {
    const env = { ...process.env, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: path };
    const ok = await run(process.execPath, [BIN, 'ipam', 'show', '--ip', '10.0.0.2'], { env, timeout: 60_000 });
    expect(ok.stdout.split('\n')[0]).toBe('IP 10.0.0.2 is in use');
    const failure = await run(process.execPath, [BIN, 'ipam', 'show', '--ip', 'bogus'], { env, timeout: 60_000 }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 2, stderr: 'invalid IP address specified: bogus\n' });
  });
});
