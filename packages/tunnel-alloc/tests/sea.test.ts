import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { startKubeApiServer } from '@ipamkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE, tempDir, track, useBackends } from './fixtures.js';

useBackends({ etcd: false });

// The single executable the image ships (design/tunnel-alloc.md, "Single executable"), exec'd as
// the container runtime does: no node, no node_modules; SQLite through the addon beside it.
const SEA = fileURLToPath(new URL('../dist/ipamkit-tunnel-alloc', import.meta.url));
const CRD_DIR = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests/crds');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

beforeAll(() => {
  expect(existsSync(SEA), `${SEA} missing: build the package first`).toBe(true);
});

describe('the ipamkit-tunnel-alloc single executable', () => {
  it('answers --version and --help', () => {
    expect(execFileSync(SEA, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(SEA, ['--help'], { encoding: 'utf8' })).toContain('Usage: ipamkit-tunnel-alloc');
  });

  it('assigns the node its VXLAN tunnel address on SQLite with --run-once', async () => {
    const path = join(tempDir(), 'ipam.db');
    const seed = await createDatastore({ type: 'sqlite', path });
    await seed.ipPools.create({ name: 'v4', cidr: '10.10.0.0/24', blockSize: 26, vxlanMode: 'Always' });
    await seed.nodes.create({ name: NODE });
    await seed.close();
    const run = spawnSync(SEA, ['--run-once'], { env: { NODENAME: NODE, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: path }, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toContain('failed');
    expect(run.status).toBe(0);
    const ds = track(await createDatastore({ type: 'sqlite', path }));
    expect((await ds.nodes.get(NODE)).tunnelAddresses?.ipv4VXLANTunnelAddr).toMatch(/^10\.10\.0\.\d+$/);
  }, 90_000);

  it('records the node\'s IPIP address as a Node annotation on the Kubernetes datastore (the API test server) with --run-once', async () => {
    const server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
    try {
      const kubeconfig = server.writeKubeconfig(join(tempDir(), 'kubeconfig'));
      const seed = track(await createDatastore({ type: 'kubernetes', kubeconfig }));
      server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE }, spec: {} });
      await seed.ipPools.create({ name: 'pool-a', cidr: '10.20.0.0/24', blockSize: 26, ipipMode: 'Always' });
      // Asynchronous: the API server answers from this process.
      await promisify(execFile)(SEA, ['--run-once'], { env: { NODENAME: NODE, DATASTORE_TYPE: 'kubernetes', KUBECONFIG: kubeconfig }, timeout: 60_000 });
      const metadata = server.readRaw({ group: '', plural: 'nodes', name: NODE })?.['metadata'] as { annotations?: Record<string, string> } | undefined;
      expect(metadata?.annotations?.['projectcalico.org/IPv4IPIPTunnelAddr']).toMatch(/^10\.20\.0\.\d+$/);
    } finally {
      await server.close();
    }
  }, 90_000);
});
