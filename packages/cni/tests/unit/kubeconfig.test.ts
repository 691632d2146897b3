import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeconfigError } from '@ipamkit/ipam-datastore/kubeconfig';
import { resolveKubeConnection } from '../../src/kube/kube-reader.js';

const KUBECTL_STYLE = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${Buffer.from('CA').toString('base64')}
    server: https://10.0.0.1:6443
  name: prod
contexts:
- context:
    cluster: prod
    user: admin   # a comment
  name: prod-admin
current-context: prod-admin
kind: Config
users:
- name: admin
  user:
    token: "s3cr\\"et"
`;

const INDENTED_STYLE = `apiVersion: v1
kind: Config
clusters:
  - name: test
    cluster:
      server: http://127.0.0.1:1234
      insecure-skip-tls-verify: true
users:
  - name: test
    user:
      token: 'abc'
contexts:
  - name: test
    context:
      cluster: test
      user: test
current-context: test
`;

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function write(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-kc-'));
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, text);
  return path;
}

const connection = (path: string): unknown => resolveKubeConnection({ kubeconfig: path }, {});

describe('kubeconfig reading through the shared loader', () => {
  it('reads a kubectl-style kubeconfig', () => {
    const path = write(KUBECTL_STYLE);
    expect(connection(path)).toEqual({
      type: 'connection',
      connection: { server: 'https://10.0.0.1:6443', token: 's3cr"et', ca: Buffer.from('CA'), insecure: false, source: path },
    });
  });

  it('reads an indented kubeconfig', () => {
    const path = write(INDENTED_STYLE);
    expect(connection(path)).toEqual({ type: 'connection', connection: { server: 'http://127.0.0.1:1234', token: 'abc', insecure: true, source: path } });
  });

  it('applies the policy overrides on top, cutting the API root at /api/', () => {
    const path = write(INDENTED_STYLE);
    const conn = resolveKubeConnection({ kubeconfig: path, apiRoot: 'https://api.example:443/api/v1', token: 'override' }, {});
    expect(conn).toEqual({ type: 'connection', connection: { server: 'https://api.example:443', token: 'override', insecure: true, source: path } });
  });

  it('builds a connection from the API root alone when no kubeconfig exists', () => {
    const conn = resolveKubeConnection({ apiRoot: 'http://127.0.0.1:8080/api/v1', serviceAccountDir: '/nonexistent' }, {});
    expect(conn).toEqual({ type: 'connection', connection: { server: 'http://127.0.0.1:8080', insecure: false, source: 'the network config' } });
  });

  it('names the override file it cannot read, and only that', () => {
    const path = write(INDENTED_STYLE);
    expect(() => resolveKubeConnection({ kubeconfig: path, clientKey: join(dir ?? '', 'missing.key') }, {})).toThrow(/cannot read the client key file .*missing\.key \(ENOENT\)/);
  });

  it('leaves an exec user to client-node, overrides aside', () => {
    const path = write(INDENTED_STYLE.replace("token: 'abc'", 'exec:\n        command: /bin/true'));
    expect(resolveKubeConnection({ kubeconfig: path, token: 'ignored' }, {})).toEqual({ type: 'credential-plugin', path, mechanism: 'exec' });
  });

  it('rejects YAML it does not understand with the file and line only', () => {
    const path = write('clusters: |\n  token: canary-a1b2\n');
    expect(() => connection(path)).toThrow(KubeconfigError);
    expect(() => connection(path)).toThrow(`kubeconfig ${path}: unsupported YAML at line 1 (block or flow style)`);
  });
});
