import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionFromKubeconfig, resolveKubeConnection } from '../../src/kube/kube-reader.js';
import { parseMiniYaml } from '../../src/kube/mini-yaml.js';

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

describe('kubeconfig reading', () => {
  it('parses nested maps and both list indentation styles', () => {
    expect(parseMiniYaml('a:\n  b: 1\n  c:\n  - x\n  - y: z\nd: "q"\n')).toEqual({ a: { b: '1', c: ['x', { y: 'z' }] }, d: 'q' });
  });

  it('reads a kubectl-style kubeconfig', () => {
    expect(connectionFromKubeconfig(write(KUBECTL_STYLE))).toEqual({ server: 'https://10.0.0.1:6443', token: 's3cr"et', ca: Buffer.from('CA'), insecure: false });
  });

  it('reads an indented kubeconfig', () => {
    expect(connectionFromKubeconfig(write(INDENTED_STYLE))).toEqual({ server: 'http://127.0.0.1:1234', token: 'abc', insecure: true });
  });

  it('applies the policy overrides on top, cutting the API root at /api/', () => {
    const conn = resolveKubeConnection({ kubeconfig: write(INDENTED_STYLE), apiRoot: 'https://api.example:443/api/v1', token: 'override' }, {});
    expect(conn).toEqual({ server: 'https://api.example:443', token: 'override', insecure: true });
  });

  it('rejects YAML it does not understand with a clear error', () => {
    expect(() => connectionFromKubeconfig(write('clusters: |\n  text\n'))).toThrow(/unsupported YAML at line 1/);
  });
});
