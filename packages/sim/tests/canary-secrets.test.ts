import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// design/ipam-datastore.md, "Configuration" (redaction): a canary secret planted in every credential
// field (kubeconfig token, kubeconfig password, client-key-data, ETCD_PASSWORD, endpoint user info)
// must never reach any bin's stdout, stderr or log file, whatever the failure: a malformed or
// wrongly typed kubeconfig, an unreachable server, a server answering 401 or 403. The built bins run
// as real processes; daemons are stopped once they have printed their first error. This test lives
// in the sim because the sim depends on every package whose bin it runs.

const CANARY = `cnry${randomBytes(8).toString('hex')}`;
const SECRET = { token: `${CANARY}tok0`, password: `${CANARY}pwd0`, keyData: `${CANARY}key0`, etcdPassword: `${CANARY}etc0`, userInfo: `${CANARY}url0` };

const requireFromHere = createRequire(import.meta.url);

/** The absolute path of a package's bin, from its package.json. */
function binOf(pkg: string, name: string): string {
  const manifest = requireFromHere.resolve(`@ipamkit/${pkg}/package.json`);
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  const rel = bins[name];
  if (rel === undefined) throw new Error(`@ipamkit/${pkg} has no bin ${name}`);
  return join(dirname(manifest), rel);
}

interface Run {
  readonly bin: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** The longest a bin may run before it is killed: the plugin may use its whole 90 s allocation deadline (design/cni.md, "ADD"). */
const CAP_MS = 20_000;
const CNI_CAP_MS = 100_000;

const ERROR_LINE = /error|fail|refused|unauthori|forbidden|invalid|cannot|unable|denied|ECONN|"level":"warn"/i;

/**
 * Runs a bin to its end, or, for a daemon, until it has printed an error line (plus a moment to
 * finish the line), with a hard cap either way.
 */
function runProcess(bin: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin: string, daemon: boolean, capMs = CAP_MS): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const cap = setTimeout(() => child.kill('SIGKILL'), capMs);
    let stopping = false;
    const onOutput = (): void => {
      if (!daemon || stopping || !ERROR_LINE.test(stderr)) return;
      stopping = true;
      setTimeout(() => child.kill('SIGKILL'), 1_500);
    };
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      onOutput();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      onOutput();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      resolve({ bin, stdout, stderr, code });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** An HTTP server on loopback answering every request with `status` and a Kubernetes Status body. */
async function refusingServer(status: 401 | 403): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    const reason = status === 401 ? 'Unauthorized' : 'Forbidden';
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Basic realm="test"' } : {}) });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${reason.toLowerCase()}: ${req.method ?? ''} ${req.url ?? ''}`, reason, code: status, error: 'etcdserver: permission denied' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

const PEM_CERT = `-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUEXAMPLEEXAMPLEEXAMPLEEXAMPLEwCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n`;

function kubeconfigText(server: string, user: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${server}`,
    'contexts:',
    '- name: x',
    '  context: {cluster: c, user: u, namespace: default}',
    'current-context: x',
    'users:',
    '- name: u',
    '  user:',
    user,
    '',
  ].join('\n');
}

const TOKEN_USER = `    token: ${SECRET.token}`;
const PASSWORD_USER = `    username: admin\n    password: ${SECRET.password}`;
const KEY_USER = `    client-certificate-data: ${Buffer.from(PEM_CERT).toString('base64')}\n    client-key-data: ${SECRET.keyData}`;

interface Case {
  readonly name: string;
  /** Datastore (and cluster) settings every bin gets in its environment. */
  readonly env: Record<string, string>;
  /** Extra network config keys for the CNI plugin. */
  readonly netconf?: Record<string, unknown>;
}

let dir = '';
let servers: Server[] = [];
let cases: Case[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-canary-'));
  const r401 = await refusingServer(401);
  const r403 = await refusingServer(403);
  servers = [r401.server, r403.server];
  const closed = `http://127.0.0.1:${await closedPort()}`;
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const kube = (name: string, text: string): Record<string, string> => ({ DATASTORE_TYPE: 'kubernetes', KUBECONFIG: file(name, text) });
  const etcd = (endpoint: string): Record<string, string> => ({ DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: endpoint, ETCD_USERNAME: 'root', ETCD_PASSWORD: SECRET.etcdPassword });
  cases = [
    // A YAML error whose excerpt would quote the neighbouring credential lines.
    { name: 'kubeconfig with a YAML error next to the secrets', env: kube('malformed.yaml', kubeconfigText(closed, `${TOKEN_USER}\n${PASSWORD_USER}\n${KEY_USER}\n   broken: [${SECRET.token}\n  - : ${SECRET.password}`)) },
    { name: 'kubeconfig with wrong types', env: kube('wrong-types.yaml', `apiVersion: v1\nkind: Config\nclusters: "${SECRET.token}"\ncurrent-context: [x]\nusers:\n  token: {value: ${SECRET.token}}\n  password: [${SECRET.password}]\n  client-key-data: 42\n  user: ${SECRET.keyData}\n`) },
    { name: 'kubeconfig token, unreachable server', env: kube('token-closed.yaml', kubeconfigText(closed, TOKEN_USER)) },
    { name: 'kubeconfig password, unreachable server', env: kube('password-closed.yaml', kubeconfigText(closed, PASSWORD_USER)) },
    { name: 'kubeconfig client key, unreachable server', env: kube('key-closed.yaml', kubeconfigText(closed, KEY_USER)) },
    { name: 'kubeconfig token, server answers 401', env: kube('token-401.yaml', kubeconfigText(r401.url, TOKEN_USER)) },
    { name: 'kubeconfig password, server answers 401', env: kube('password-401.yaml', kubeconfigText(r401.url, PASSWORD_USER)) },
    { name: 'kubeconfig token, server answers 403', env: kube('token-403.yaml', kubeconfigText(r403.url, TOKEN_USER)) },
    { name: 'etcd endpoint with user info', env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: `http://root:${SECRET.userInfo}@127.0.0.1:2379` } },
    { name: 'etcd password, unreachable server', env: etcd(closed) },
    { name: 'etcd password, server answers 401', env: etcd(r401.url) },
    { name: 'etcd password, server answers 403', env: etcd(r403.url) },
    {
      name: 'etcd client key file holding the secret',
      env: { ...etcd(closed.replace('http:', 'https:')), ETCD_CERT_FILE: file('etcd-cert.pem', PEM_CERT), ETCD_KEY_FILE: file('etcd-key.pem', `-----BEGIN PRIVATE KEY-----\n${SECRET.keyData}\n-----END PRIVATE KEY-----\n`) },
    },
    {
      name: 'network config with secrets in wrongly typed keys',
      env: { ETCD_PASSWORD: SECRET.etcdPassword, ETCD_USERNAME: 'root' },
      netconf: { datastore_type: 'etcdv3', etcd_endpoints: [`http://root:${SECRET.userInfo}@127.0.0.1:2379`], kubernetes: { kubeconfig: { token: SECRET.token } } },
    },
  ];
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** The environment of a bin: this process's, minus anything that would pick a datastore or a cluster. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([key]) => !/^(DATASTORE_TYPE|ETCD_|KUBECONFIG$|KUBERNETES_|CALICO_|IPAMKIT_|NODE_EXTRA_CA_CERTS$)/.test(key));
  return { ...Object.fromEntries(kept), HOME: dir, NODENAME: 'node-a', ...extra };
}

/** Every file the bins may have written in the case's directory (the plugin's log file). */
function filesUnder(path: string): { path: string; text: string }[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return statSync(full).size < 4 * 1024 * 1024 ? [{ path: full, text: readFileSync(full, 'utf8') }] : [];
  });
}

/** Every bin of the project, driven through one failing datastore configuration. */
async function runEveryBin(c: Case, caseDir: string): Promise<Run[]> {
  const netconf = {
    cniVersion: '1.0.0',
    name: 'k8s-pod-network',
    type: 'calico',
    nodename: 'node-a',
    log_level: 'debug',
    log_file_path: join(caseDir, 'cni.log'),
    ipam_lock_file: join(caseDir, 'ipam.lock'),
    // A short call budget: the failure paths answer in seconds instead of the 50 s default.
    ipam: { type: 'calico-ipam', timeout_seconds: 5 },
    ...c.netconf,
  };
  const cniEnv = { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'canary', CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni', CNI_ARGS: 'K8S_POD_NAMESPACE=default;K8S_POD_NAME=canary' };
  return Promise.all([
    runProcess(binOf('cni', 'calico-ipam'), [], baseEnv({ ...c.env, ...cniEnv }), JSON.stringify(netconf), false, CNI_CAP_MS),
    runProcess(binOf('cli', 'ipamkit'), ['ipam', 'show'], baseEnv(c.env), '', false),
    runProcess(binOf('gc', 'ipamkit-gc'), ['--metrics-port', '-1'], baseEnv(c.env), '', true),
    runProcess(binOf('lb-alloc', 'ipamkit-lb-alloc'), ['--metrics-port', '-1'], baseEnv(c.env), '', true),
    runProcess(binOf('tunnel-alloc', 'ipamkit-tunnel-alloc'), ['--run-once'], baseEnv(c.env), '', false),
  ]);
}

describe('no secret leaves any bin', () => {
  // Names are fixed here so each case is its own test; the configurations are built in beforeAll.
  const NAMES = [
    'kubeconfig with a YAML error next to the secrets',
    'kubeconfig with wrong types',
    'kubeconfig token, unreachable server',
    'kubeconfig password, unreachable server',
    'kubeconfig client key, unreachable server',
    'kubeconfig token, server answers 401',
    'kubeconfig password, server answers 401',
    'kubeconfig token, server answers 403',
    'etcd endpoint with user info',
    'etcd password, unreachable server',
    'etcd password, server answers 401',
    'etcd password, server answers 403',
    'etcd client key file holding the secret',
    'network config with secrets in wrongly typed keys',
  ];

  it.each(NAMES)('%s', async (name) => {
    const c = cases.find((x) => x.name === name);
    if (c === undefined) throw new Error(`no case ${name}`);
    const caseDir = mkdtempSync(join(dir, 'case-'));
    const runs = await runEveryBin(c, caseDir);
    const problems: string[] = [];
    for (const run of runs) {
      // Each bin must really take the failure path and say so: an error on stderr or the CNI's
      // error JSON. A bin still silent at the cap never showed what it would print.
      if (`${run.stderr}${run.stdout}` === '') problems.push(`${run.bin} printed nothing before it was killed`);
      for (const [stream, text] of [['stdout', run.stdout], ['stderr', run.stderr]] as const) {
        if (text.includes(CANARY)) problems.push(`${run.bin} ${stream} leaks: ${excerpt(text)}`);
      }
    }
    for (const f of filesUnder(caseDir)) {
      if (f.text.includes(CANARY)) problems.push(`${f.path} leaks: ${excerpt(f.text)}`);
    }
    expect(problems).toEqual([]);
  });
});

/** The lines around the canary, for the failure message (the canary is this test's own fake secret). */
function excerpt(text: string): string {
  const at = text.indexOf(CANARY);
  return JSON.stringify(text.slice(Math.max(0, at - 300), at + 100));
}
