import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findKubeconfig, inClusterConnection, KubeconfigError, loadKubeconfig, readKubeconfigFile, type KubeconfigLoad } from '../../src/kubeconfig/index.js';
import { calicoCniKubeconfig } from './support/kubeconfig-text.js';

const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kubeconfig-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function connectionOf(load: KubeconfigLoad | undefined): Extract<KubeconfigLoad, { type: 'connection' }>['connection'] {
  if (load?.type !== 'connection') throw new Error(`expected a connection, got ${JSON.stringify(load)}`);
  return load.connection;
}

describe('readKubeconfigFile on Calico CNI kubeconfig shapes', () => {
  it('reads the kubeconfig install-cni writes: CA data, a token, one context', () => {
    const file = write(
      'calico-kubeconfig',
      calicoCniKubeconfig({ server: 'https://10.96.0.1:443', 'certificate-authority-data': Buffer.from(CA_PEM).toString('base64') }, { token: 'eyJhbGciOi.calico' }),
    );
    expect(readKubeconfigFile(file)).toEqual({
      type: 'connection',
      connection: { server: 'https://10.96.0.1:443', token: 'eyJhbGciOi.calico', ca: Buffer.from(CA_PEM), insecure: false, source: file },
    });
  });

  it('reads a token file relative to the kubeconfig, trimmed, and keeps its path for re-reads', () => {
    write('secrets/token', 'file-token\n');
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443' }, { tokenFile: 'secrets/token' }));
    const conn = connectionOf(readKubeconfigFile(file));
    expect(conn.token).toBe('file-token');
    expect(conn.tokenFile).toBe(path.join(dir, 'secrets/token'));
  });

  it('prefers an inline token over a token file', () => {
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443' }, { token: 'inline', tokenFile: 'missing' }));
    expect(connectionOf(readKubeconfigFile(file))).toEqual({ server: 'https://k:6443', token: 'inline', insecure: false, source: file });
  });

  it('reads client certificate, key and CA files relative to the kubeconfig, and the TLS flags', () => {
    write('pki/ca.crt', 'CA');
    write('pki/client.crt', 'CERT');
    write('pki/client.key', 'KEY');
    const file = write(
      'kubeconfig',
      calicoCniKubeconfig(
        { server: 'https://10.0.0.1:6443/', 'certificate-authority': 'pki/ca.crt', 'insecure-skip-tls-verify': true, 'tls-server-name': 'kubernetes.default' },
        { 'client-certificate': 'pki/client.crt', 'client-key': path.join(dir, 'pki/client.key') },
      ),
    );
    expect(connectionOf(readKubeconfigFile(file))).toEqual({
      server: 'https://10.0.0.1:6443',
      ca: Buffer.from('CA'),
      cert: Buffer.from('CERT'),
      key: Buffer.from('KEY'),
      insecure: true,
      tlsServerName: 'kubernetes.default',
      source: file,
    });
  });

  it.each([
    ['exec', '    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: aws\n      args:\n      - eks\n      - get-token\n'],
    ['auth-provider', '    auth-provider:\n      name: oidc\n      config:\n        client-id: x\n'],
  ] as const)('leaves a user with %s to client-node', (mechanism, section) => {
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443' }, {}, section));
    expect(readKubeconfigFile(file)).toEqual({ type: 'credential-plugin', path: file, mechanism });
  });
});

describe('the default chain', () => {
  const token = (name: string): string => calicoCniKubeconfig({ server: `https://${name}:6443` }, { token: name });
  const serviceAccount = (): string => {
    write('sa/token', 'sa-token\n');
    write('sa/ca.crt', 'SA-CA');
    return path.join(dir, 'sa');
  };

  it('takes the explicit path first', () => {
    const explicit = write('explicit', token('explicit'));
    const env = { KUBECONFIG: write('env', token('env')), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    expect(connectionOf(findKubeconfig({ path: explicit, env, serviceAccountDir: serviceAccount() })).server).toBe('https://explicit:6443');
  });

  it('then the first entry of $KUBECONFIG (a list is not merged)', () => {
    const env = { KUBECONFIG: `${write('first', token('first'))}:${write('second', token('second'))}`, KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    expect(connectionOf(findKubeconfig({ env, serviceAccountDir: serviceAccount() })).server).toBe('https://first:6443');
  });

  it('then the in-cluster service account', () => {
    write('home/.kube/config', token('home'));
    const saDir = serviceAccount();
    const conn = connectionOf(findKubeconfig({ env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDir: saDir, homeDir: path.join(dir, 'home') }));
    expect(conn).toEqual({
      server: 'https://10.96.0.1:443',
      token: 'sa-token',
      tokenFile: path.join(saDir, 'token'),
      ca: Buffer.from('SA-CA'),
      insecure: false,
      source: `the in-cluster service account (${saDir})`,
    });
  });

  it('brackets an IPv6 service host', () => {
    expect(inClusterConnection({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccount())?.server).toBe('https://[fd00::1]:443');
  });

  it('is not in a cluster without the port variable or without the token file', () => {
    expect(inClusterConnection({ KUBERNETES_SERVICE_HOST: '10.96.0.1' }, serviceAccount())).toBeUndefined();
    expect(inClusterConnection({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, path.join(dir, 'none'))).toBeUndefined();
  });

  it('then ~/.kube/config', () => {
    write('home/.kube/config', token('home'));
    expect(connectionOf(findKubeconfig({ env: {}, serviceAccountDir: path.join(dir, 'none'), homeDir: path.join(dir, 'home') })).server).toBe('https://home:6443');
  });

  it('fails clearly when nothing names an API server', () => {
    expect(() => loadKubeconfig({ env: {}, serviceAccountDir: path.join(dir, 'none'), homeDir: path.join(dir, 'home') })).toThrow(/no kubeconfig found/);
  });
});

describe('kubeconfig errors name the file and never a secret', () => {
  const CANARY = 'canary-7f3a9c1e';

  function messageOf(fn: () => unknown): string {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(KubeconfigError);
      return (err as Error).message;
    }
    throw new Error('expected an error');
  }

  it.each([
    ['a token', `users:\n- name: u\n  user:\n    token: ${CANARY}\n    bad: [flow]\n`, 5],
    ['a password', `users:\n- name: u\n  user:\n    username: admin\n    password: ${CANARY}\n\tindented: x\n`, 6],
    ['client-key-data', `users:\n- name: u\n  user:\n    client-key-data: ${CANARY}\n    note: |\n      more\n`, 5],
  ])('a YAML error near %s gives the path and line only', (_what, text, line) => {
    const file = write('kubeconfig', text);
    const message = messageOf(() => readKubeconfigFile(file));
    expect(message).toMatch(new RegExp(`^kubeconfig ${file}: unsupported YAML at line ${line} \\(`));
    expect(message).not.toContain(CANARY);
  });

  it.each([
    ['users is not a list', `current-context: c\ncontexts:\n- name: c\n  context:\n    cluster: k\n    user: u\nclusters:\n- name: k\n  cluster:\n    server: https://k\nusers: ${CANARY}\n`, /users must be a list/],
    ['a flag is not a boolean', calicoCniKubeconfig({ server: 'https://k', 'insecure-skip-tls-verify': CANARY }, { token: CANARY }), /insecure-skip-tls-verify must be true or false/],
    ['a user is not a mapping', calicoCniKubeconfig({ server: 'https://k' }, {}).replace('  user:\n', `  user: ${CANARY}\n`), /users\[calico\]\.user must be a mapping/],
    ['the current context is missing', calicoCniKubeconfig({ server: 'https://k' }, { token: CANARY }).replace('current-context: calico-context', 'current-context: gone'), /contexts has no entry named "gone"/],
  ])('a wrong shape (%s) names the field, not its value', (_what, text, expected) => {
    const file = write('kubeconfig', text);
    const message = messageOf(() => readKubeconfigFile(file));
    expect(message).toMatch(expected);
    expect(message).toContain(file);
    expect(message).not.toContain(CANARY);
  });

  it('names a missing kubeconfig and an unreadable token file by path and errno code', () => {
    expect(messageOf(() => readKubeconfigFile(path.join(dir, 'absent')))).toBe(`cannot read kubeconfig ${path.join(dir, 'absent')} (ENOENT)`);
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k' }, { tokenFile: 'no-such-token', password: CANARY, username: 'u' }));
    const message = messageOf(() => readKubeconfigFile(file));
    expect(message).toBe(`kubeconfig ${file}: cannot read the tokenFile file ${path.join(dir, 'no-such-token')} (ENOENT)`);
  });

  it('refuses a context without a cluster', () => {
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k' }, { token: CANARY }).replace('    cluster: local\n', ''));
    expect(messageOf(() => readKubeconfigFile(file))).toBe(`kubeconfig ${file}: context calico-context names no cluster`);
  });

  it('refuses a client certificate without its key', () => {
    write('client.crt', 'CERT');
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k' }, { 'client-certificate': 'client.crt' }));
    expect(messageOf(() => readKubeconfigFile(file))).toMatch(/needs both client-certificate and client-key/);
  });
});

describe('readKubeconfigFile parses a file once while it and the files it names stay the same (design/ipam-datastore.md, "One kubeconfig parse per process")', () => {
  it('returns the same load for unchanged bytes, and reads a rewritten kubeconfig again', () => {
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443' }, { token: 'first' }));
    const first = readKubeconfigFile(file);
    expect(readKubeconfigFile(file)).toBe(first);
    // The same length and the same mtime tick would fool a stat: the bytes decide.
    write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443' }, { token: 'secnd' }));
    expect(connectionOf(readKubeconfigFile(file)).token).toBe('secnd');
  });

  it('reads again when a file the kubeconfig names changes, and fails as before when it goes', () => {
    write('pki/ca.crt', 'CA-1');
    write('token', 'tok-1');
    const file = write('kubeconfig', calicoCniKubeconfig({ server: 'https://k:6443', 'certificate-authority': 'pki/ca.crt' }, { tokenFile: 'token' }));
    const first = connectionOf(readKubeconfigFile(file));
    expect([first.ca?.toString(), first.token]).toEqual(['CA-1', 'tok-1']);
    write('pki/ca.crt', 'CA-2');
    expect(connectionOf(readKubeconfigFile(file)).ca?.toString()).toBe('CA-2');
    write('token', 'tok-2');
    expect(connectionOf(readKubeconfigFile(file)).token).toBe('tok-2');
    rmSync(path.join(dir, 'token'));
    expect(() => readKubeconfigFile(file)).toThrow(KubeconfigError);
  });

  it('keeps the loads of two paths apart', () => {
    const a = write('a', calicoCniKubeconfig({ server: 'https://a:6443' }, { token: 'a' }));
    const b = write('b', calicoCniKubeconfig({ server: 'https://b:6443' }, { token: 'b' }));
    expect(connectionOf(readKubeconfigFile(a)).server).toBe('https://a:6443');
    expect(connectionOf(readKubeconfigFile(b)).server).toBe('https://b:6443');
    expect(connectionOf(readKubeconfigFile(a)).server).toBe('https://a:6443');
  });
});
