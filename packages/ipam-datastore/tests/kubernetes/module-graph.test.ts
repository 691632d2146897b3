import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { CRD_DIR } from './kube-test-server.js';
import { calicoCniKubeconfig } from './support/kubeconfig-text.js';

// The child imports the built package (`dist/`): the test target builds it first.
const SUPPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support');
const PACKAGE_DIR = path.resolve(SUPPORT, '../../..');
const CLIENT_NODE = /[/\\]node_modules[/\\]@kubernetes[/\\]client-node[/\\]/;

let server: KubeApiServer;
let dir: string;
beforeAll(async () => {
  server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
  server.inject({ apiVersion: 'crd.projectcalico.org/v1', kind: 'IPPool', metadata: { name: 'pool-graph' }, spec: { cidr: '10.7.0.0/16', blockSize: 26 } });
  dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-graph-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ChildRun {
  readonly cidr: string;
  /** Every module the child loaded: ESM URLs seen by the resolve hook, then `require.cache` keys. */
  readonly modules: string[];
}

async function openAndReadInChild(kubeconfigText: string, name: string): Promise<ChildRun> {
  const kubeconfig = path.join(dir, name);
  writeFileSync(kubeconfig, kubeconfigText);
  const log = path.join(dir, `${name}.modules`);
  writeFileSync(log, '');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    IPAMKIT_TEST_KUBECONFIG: kubeconfig,
    IPAMKIT_TEST_POOL: 'pool-graph',
    IPAMKIT_TEST_TOKEN: server.token,
    IPAMKIT_MODULE_LOG: log,
  };
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, ['--import', path.join(SUPPORT, 'record-loads.mjs'), path.join(SUPPORT, 'open-and-read-child.mjs')], { cwd: PACKAGE_DIR, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`child exited ${String(code)}: ${stderr}`);
  const out = JSON.parse(stdout) as { cidr: string; requireCache: string[] };
  const esm = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
  return { cidr: out.cidr, modules: [...esm, ...out.requireCache] };
}

describe('what a Kubernetes datastore read loads', () => {
  it('loads no @kubernetes/client-node with a token kubeconfig', async () => {
    const run = await openAndReadInChild(calicoCniKubeconfig({ server: server.url }, { token: server.token }), 'token');
    expect(run.cidr).toBe('10.7.0.0/16');
    expect(run.modules.some((m) => m.includes('ipam-datastore/dist/kubernetes.js'))).toBe(true);
    expect(run.modules.filter((m) => CLIENT_NODE.test(m))).toEqual([]);
  });

  it('loads @kubernetes/client-node, lazily, for an exec user, and reads through it', async () => {
    const exec = `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${JSON.stringify(process.execPath)}\n      args:\n      - ${JSON.stringify(path.join(SUPPORT, 'exec-credential.cjs'))}\n      interactiveMode: Never\n`;
    const run = await openAndReadInChild(calicoCniKubeconfig({ server: server.url, 'insecure-skip-tls-verify': true }, {}, exec), 'exec');
    expect(run.cidr).toBe('10.7.0.0/16');
    expect(run.modules.filter((m) => CLIENT_NODE.test(m)).length).toBeGreaterThan(0);
  });
});
