import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runIpamCommand } from '../src/index.js';
import { FakeClock, Sink } from './fixtures.js';
import { POOL } from './resource-documents.js';

const CRD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../ipam-datastore/manifests/crds');

describe('get on Kubernetes', () => {
  let server: KubeApiServer;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-resources-kube-'));
    kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
    // What the cluster has: a pool written as Calico's v1 CRD and a Kubernetes Node annotated by calico-node.
    server.inject({
      apiVersion: 'crd.projectcalico.org/v1',
      kind: 'IPPool',
      metadata: { name: 'default-ipv4-ippool' },
      spec: { cidr: '192.168.0.0/16', blockSize: 26, ipipMode: 'Always', natOutgoing: true, nodeSelector: 'all()' },
    });
    server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', annotations: { 'projectcalico.org/IPv4Address': '10.0.0.11/24' } } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await runIpamCommand(['--datastore', 'kubernetes', '--kubeconfig', kubeconfig, ...argv], { stdout, stderr, env: {}, clock: new FakeClock() });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  it('lists pools as a table and as v3 YAML', async () => {
    expect(await cli(['get', 'ippools'])).toEqual({ code: 0, stdout: 'NAME                  CIDR             SELECTOR\ndefault-ipv4-ippool   192.168.0.0/16   all()\n', stderr: '' });
    const doc = parse((await cli(['get', 'ippool', 'default-ipv4-ippool', '-o', 'yaml'])).stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      apiVersion: 'projectcalico.org/v3',
      kind: 'IPPool',
      metadata: { name: 'default-ipv4-ippool' },
      spec: { cidr: '192.168.0.0/16', blockSize: 26, ipipMode: 'Always', vxlanMode: 'Never', natOutgoing: true, nodeSelector: 'all()', allowedUses: ['Workload', 'Tunnel'] },
    });
  });

  it('lists Kubernetes nodes with their Calico addresses', async () => {
    expect((await cli(['get', 'nodes', '-o', 'wide'])).stdout).toBe('NAME       ASN       IPV4           IPV6\nworker-1   (64512)   10.0.0.11/24\n');
  });

  it('applies a pool and reads it back', async () => {
    const path = join(dir, 'pool.yaml');
    writeFileSync(path, JSON.stringify(POOL));
    expect(await cli(['apply', '-f', path])).toEqual({ code: 0, stdout: "Successfully applied 1 'IPPool' resource(s)\n", stderr: '' });
    expect((await cli(['get', 'ippool', '-o', 'yaml'])).stdout).toContain('name: my.ippool-1');
  });
});
