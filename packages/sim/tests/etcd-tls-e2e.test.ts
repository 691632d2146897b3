import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { startEtcd, startKubeApiServer, type EtcdHandle, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 17's acceptance, end to end (design/ipam-datastore.md, "Security: etcd TLS and
// authentication"): one etcd that requires client certificates (`--client-cert-auth`, its own CA)
// and one with etcd authentication enabled. On each, the shipped artefacts run as an operator runs
// them: a CNI ADD and DEL through the single executable, `ipamkit ipam show` through the CLI bin,
// and a garbage-collector sync through `ipamkit-gc` (pods and nodes from the Kubernetes API test
// server). Then the failures an operator makes: a wrong CA, no client certificate, a wrong
// password; each is a clear error naming the endpoint, with no secret in any output.

const requireFromHere = createRequire(import.meta.url);

/** The directory of a workspace package. */
function packageDir(pkg: string): string {
  return dirname(requireFromHere.resolve(`@ipamkit/${pkg}/package.json`));
}

/** The absolute path of a package's bin, from its package.json. */
function binOf(pkg: string, name: string): string {
  const manifest = join(packageDir(pkg), 'package.json');
  const rel = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin[name];
  if (rel === undefined) throw new Error(`@ipamkit/${pkg} has no bin ${name}`);
  return join(packageDir(pkg), rel);
}

/** The plugin's single executable (design/cni.md, "Start-up cost"). */
const CNI_EXECUTABLE = join(packageDir('cni'), 'dist', 'calico-ipam');
const CLI = binOf('cli', 'ipamkit');
const GC = binOf('gc', 'ipamkit-gc');
const NODE = 'node-a';
const POOL = { name: 'pool4', cidr: '10.40.0.0/24', blockSize: 26 };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end with stdin, killing it after `capMs`. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin = '', capMs = 30_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const cap = setTimeout(() => child.kill('SIGKILL'), capMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** This process's environment without any datastore or cluster setting, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([key]) => !/^(DATASTORE_TYPE|ETCD_|KUBECONFIG$|KUBERNETES_|CALICO_|IPAMKIT_|NODE_EXTRA_CA_CERTS$|POD_)/.test(key));
  return { ...Object.fromEntries(kept), HOME: dir, ...extra };
}

/** How one etcd is reached: the CNI netconf keys, the CLI flags and the environment of every bin. */
interface Access {
  readonly netconf: Record<string, string>;
  readonly cliFlags: readonly string[];
  readonly env: Record<string, string>;
}

/** A CNI call through the single executable, as a container runtime makes it. */
function cni(command: 'ADD' | 'DEL', containerId: string, access: Access, endpoint: string, timeoutSeconds = 30): Promise<Run> {
  const conf = {
    cniVersion: '1.0.0',
    name: 'k8s-pod-network',
    type: 'calico',
    nodename: NODE,
    datastore_type: 'etcdv3',
    etcd_endpoints: endpoint,
    ipam_lock_file: join(dir, 'ipam.lock'),
    log_level: 'debug',
    log_file_path: join(dir, 'cni.log'),
    ipam: { type: 'calico-ipam', timeout_seconds: timeoutSeconds },
    ...access.netconf,
  };
  const env = cleanEnv({ ...access.env, CNI_COMMAND: command, CNI_CONTAINERID: containerId, CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni' });
  return run(CNI_EXECUTABLE, [], env, JSON.stringify(conf), (timeoutSeconds + 20) * 1000);
}

function cliShow(access: Access, endpoint: string, extraArgs: readonly string[] = []): Promise<Run> {
  return run(process.execPath, [CLI, '--datastore', 'etcdv3', '--etcd-endpoints', endpoint, ...access.cliFlags, 'ipam', 'show', ...extraArgs], cleanEnv(access.env));
}

/** Pool and node, written through createDatastore with the same security settings as the bins. */
async function seed(config: DatastoreConfig): Promise<void> {
  const ds = await createDatastore(config);
  try {
    await ds.nodes.create({ name: NODE, labels: {} });
    await ds.ipPools.create(POOL);
  } finally {
    await ds.close();
  }
}

/** Every handle in the datastore. */
async function handles(config: DatastoreConfig): Promise<string[]> {
  const ds = await createDatastore(config);
  try {
    return (await ds.handles.list()).map((h) => h.handleId).sort();
  } finally {
    await ds.close();
  }
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A gc sync on this datastore: an allocation on a Calico node whose Kubernetes node is gone is a
 * leak that one full sync releases (design/gc.md, "Leak classification, grace periods and release"). The
 * bin's /readyz turns 200 once the first full sync is done, and the leak is then gone.
 */
async function gcSync(config: DatastoreConfig, env: Record<string, string>, secrets: readonly string[]): Promise<void> {
  const ds: Datastore = await createDatastore(config);
  try {
    // An etcd-mode Calico node names its Kubernetes node in spec.orchRefs; the cluster has none by that name.
    await ds.nodes.create({ name: 'node-gone', labels: {}, unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName: 'node-gone' }] } } });
    const ipam = createIpamClient({ datastore: ds });
    await ipam.autoAssign({ num4: 1, handleId: 'k8s-pod-network.leaked', attrs: { node: 'node-gone', namespace: 'default', pod: 'ghost' }, hostname: 'node-gone', intendedUse: 'Workload' });
  } finally {
    await ds.close();
  }
  expect(await handles(config)).toContain('k8s-pod-network.leaked');
  const child = spawn(process.execPath, [GC, '--metrics-port', '0', '--leak-grace-period', '1s'], { env: cleanEnv({ ...env, DATASTORE_TYPE: 'etcdv3', KUBECONFIG: kubeconfig }), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    let port: number | undefined;
    await eventually('the metrics port', async () => {
      if (child.exitCode !== null) throw new Error(`ipamkit-gc exited with ${String(child.exitCode)}:\n${stderr}`);
      const line = stderr.split('\n').find((l) => l.includes('"metrics listening"'));
      if (line !== undefined) port = (JSON.parse(line) as { port: number }).port;
      return Promise.resolve(port !== undefined);
    });
    await eventually('/readyz 200 (first full sync)', async () => {
      if (child.exitCode !== null) throw new Error(`ipamkit-gc exited with ${String(child.exitCode)}:\n${stderr}`);
      return (await fetch(`http://127.0.0.1:${String(port)}/readyz`)).status === 200;
    });
    await eventually('the leaked allocation to be released', async () => !(await handles(config)).includes('k8s-pod-network.leaked'));
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  expect(stderr).not.toMatch(/"level":"error"/);
  for (const secret of secrets) expect(stderr).not.toContain(secret);
}

/** The CNI error answer (code, msg and details), its text being msg and details together. */
function cniError(r: Run): { code: number; text: string } {
  expect(r.code).toBe(1);
  const answer = JSON.parse(r.stdout) as { code: number; msg: string; details?: string };
  return { code: answer.code, text: `${answer.msg} ${answer.details ?? ''}` };
}

/** No output of a run, nor the plugin's log file, quotes any of the secrets. */
function expectNoSecret(r: Run, secrets: readonly string[]): void {
  const logFile = join(dir, 'cni.log');
  const texts = [r.stdout, r.stderr, existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''];
  for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
}

/** The base64 body lines of a PEM private key: what a leak of the key would show. */
function keyMaterial(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
}

let dir = '';
let kube: KubeApiServer | undefined;
let kubeconfig = '';

beforeAll(async () => {
  for (const file of [CNI_EXECUTABLE, CLI, GC]) expect(existsSync(file), `${file} missing: build @ipamkit/cni, cli and gc first`).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-etcd-tls-e2e-'));
  kube = await startKubeApiServer({ initialNamespaces: ['default', 'kube-system'] });
  kubeconfig = kube.writeKubeconfig(join(dir, 'kubeconfig'));
});

afterAll(async () => {
  await kube?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('etcd with client certificates (--client-cert-auth)', () => {
  let etcd: EtcdHandle | undefined;
  let files = { caFile: '', certFile: '', keyFile: '', untrustedCaFile: '' };
  let config: DatastoreConfig = { type: 'memory' };
  const endpoint = (): string => etcd?.endpoint ?? '';
  const access = (): Access => ({
    netconf: { etcd_ca_cert_file: files.caFile, etcd_cert_file: files.certFile, etcd_key_file: files.keyFile },
    cliFlags: ['--etcd-ca-cert-file', files.caFile, '--etcd-cert-file', files.certFile, '--etcd-key-file', files.keyFile],
    env: { ETCD_CA_CERT_FILE: files.caFile, ETCD_CERT_FILE: files.certFile, ETCD_KEY_FILE: files.keyFile },
  });

  beforeAll(async () => {
    etcd = await startEtcd({ tls: true });
    if (etcd.tls === undefined) throw new Error('startEtcd({ tls: true }) gave no certificates');
    files = etcd.tls;
    config = { type: 'etcd', endpoints: [etcd.endpoint], tls: { caFile: files.caFile, certFile: files.certFile, keyFile: files.keyFile } };
    await seed(config);
  }, 60_000);

  afterAll(async () => {
    await etcd?.stop();
  });

  it('serves a CNI ADD and DEL through the single executable', async () => {
    const add = await cni('ADD', 'tls-c1', access(), endpoint());
    expect(add.code, add.stdout + add.stderr).toBe(0);
    const ips = (JSON.parse(add.stdout) as { ips: { address: string }[] }).ips.map((i) => i.address);
    expect(ips).toEqual([expect.stringMatching(/^10\.40\.0\.\d+\/26$/)]);
    expect(await handles(config)).toEqual(['k8s-pod-network.tls-c1']);
    const del = await cni('DEL', 'tls-c1', access(), endpoint());
    expect(del.code, del.stdout + del.stderr).toBe(0);
    expect(await handles(config)).toEqual([]);
  }, 60_000);

  it('serves `ipamkit ipam show` through the CLI flags', async () => {
    const show = await cliShow(access(), endpoint());
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(POOL.cidr);
  }, 60_000);

  it('serves a gc full sync that releases a leaked allocation', async () => {
    await gcSync(config, { ETCD_ENDPOINTS: endpoint(), ...access().env }, keyMaterial(files.keyFile));
  }, 90_000);

  it('a wrong CA is a clear error naming the endpoint, from the plugin and the CLI', async () => {
    const wrongCa: Access = { ...access(), netconf: { ...access().netconf, etcd_ca_cert_file: files.untrustedCaFile }, cliFlags: ['--etcd-ca-cert-file', files.untrustedCaFile, '--etcd-cert-file', files.certFile, '--etcd-key-file', files.keyFile] };
    const add = await cni('ADD', 'tls-bad-ca', wrongCa, endpoint(), 5);
    const answer = cniError(add);
    // The datastore stays unavailable for the whole budget: try again later, saying why (design/cni.md, "Deadline").
    expect(answer.code).toBe(11);
    expect(answer.text).toContain(endpoint());
    expect(answer.text).toMatch(/certificate|TLS/i);
    const show = await cliShow(wrongCa, endpoint());
    expect(show.code).not.toBe(0);
    expect(show.stderr).toContain(endpoint());
    expect(show.stderr).toMatch(/certificate|TLS/i);
    for (const r of [add, show]) expectNoSecret(r, keyMaterial(files.keyFile));
  }, 60_000);

  it('a missing client certificate is a clear error naming the endpoint, from the plugin and the CLI', async () => {
    const noCert: Access = { netconf: { etcd_ca_cert_file: files.caFile }, cliFlags: ['--etcd-ca-cert-file', files.caFile], env: {} };
    const add = await cni('ADD', 'tls-no-cert', noCert, endpoint(), 5);
    const answer = cniError(add);
    expect(answer.code).toBe(11);
    expect(answer.text).toContain(endpoint());
    expect(answer.text).toMatch(/certificate|TLS|handshake/i);
    const show = await cliShow(noCert, endpoint());
    expect(show.code).not.toBe(0);
    expect(show.stderr).toContain(endpoint());
    expect(show.stderr).toMatch(/certificate|TLS|handshake/i);
    for (const r of [add, show]) expectNoSecret(r, keyMaterial(files.keyFile));
    expect(await handles(config)).toEqual([]);
  }, 60_000);
});

describe('etcd with authentication (etcdctl user add, auth enable)', () => {
  let etcd: EtcdHandle | undefined;
  let username = '';
  let password = '';
  let config: DatastoreConfig = { type: 'memory' };
  const endpoint = (): string => etcd?.endpoint ?? '';
  const access = (pass = password): Access => ({ netconf: {}, cliFlags: [], env: { ETCD_USERNAME: username, ETCD_PASSWORD: pass } });

  beforeAll(async () => {
    etcd = await startEtcd({ auth: true });
    if (etcd.auth === undefined) throw new Error('startEtcd({ auth: true }) gave no credentials');
    ({ username, password } = etcd.auth);
    config = { type: 'etcd', endpoints: [etcd.endpoint], username, password };
    await seed(config);
  }, 60_000);

  afterAll(async () => {
    await etcd?.stop();
  });

  it('serves a CNI ADD and DEL through the single executable', async () => {
    const add = await cni('ADD', 'auth-c1', access(), endpoint());
    expect(add.code, add.stdout + add.stderr).toBe(0);
    expect(await handles(config)).toEqual(['k8s-pod-network.auth-c1']);
    const del = await cni('DEL', 'auth-c1', access(), endpoint());
    expect(del.code, del.stdout + del.stderr).toBe(0);
    expect(await handles(config)).toEqual([]);
    for (const r of [add, del]) expectNoSecret(r, [password]);
  }, 60_000);

  it('serves `ipamkit ipam show` with ETCD_USERNAME and ETCD_PASSWORD', async () => {
    const show = await cliShow(access(), endpoint());
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(POOL.cidr);
    expectNoSecret(show, [password]);
  }, 60_000);

  it('serves a gc full sync that releases a leaked allocation', async () => {
    await gcSync(config, { ETCD_ENDPOINTS: endpoint(), ...access().env }, [password]);
  }, 90_000);

  it('a wrong password is a clear error naming the endpoint, from the plugin and the CLI', async () => {
    const wrong = `wrong-${password.slice(0, 4)}-pass`;
    const add = await cni('ADD', 'auth-bad', access(wrong), endpoint(), 5);
    const answer = cniError(add);
    // A rejected password is configuration: code 7 at once, no retrying until the budget ends.
    expect(answer.code).toBe(7);
    expect(answer.text).toContain(endpoint());
    expect(answer.text).toMatch(/authentication|password|credentials/i);
    const show = await cliShow(access(wrong), endpoint());
    expect(show.code).not.toBe(0);
    expect(show.stderr).toContain(endpoint());
    expect(show.stderr).toMatch(/authentication|password|credentials/i);
    for (const r of [add, show]) expectNoSecret(r, [password, wrong]);
    expect(await handles(config)).toEqual([]);
  }, 60_000);
});
