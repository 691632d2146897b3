import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cidrContains } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BinProcess, fetchStatus, killBin, spawnBin } from '@ipamkit/test-utils';
import { LB_POOL_V4, seedPools } from './harness.js';
import { ingressOf, type KubeFixture, serviceObject, startKube } from './kube-harness.js';

// The single executable the image ships (design/lb-alloc.md, "Single executable"), exec'd as the
// container runtime does: no node, no node_modules; SQLite through the addon beside it.
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEA = path.join(PACKAGE, 'dist/ipamkit-lb-alloc');
const { version } = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as { version: string };

let kube: KubeFixture | undefined;
let proc: BinProcess | undefined;
let dir: string | undefined;

beforeAll(() => {
  expect(existsSync(SEA), `${SEA} missing: build the package first`).toBe(true);
});

afterEach(async () => {
  await killBin(proc);
  proc = undefined;
  await kube?.server.close();
  kube = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the ipamkit-lb-alloc single executable', () => {
  it('answers --version and --help', () => {
    expect(execFileSync(SEA, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(SEA, ['--help'], { encoding: 'utf8' })).toContain('Usage: ipamkit-lb-alloc');
  });

  it('syncs a LoadBalancer Service from the API test server to an address of a SQLite pool, and exits 0 on SIGTERM', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lb-sea-'));
    const db = path.join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path: db });
    await seedPools(ds, [LB_POOL_V4]);
    await ds.close();
    kube = await startKube();
    const { server } = kube;
    server.inject(serviceObject({ name: 'web', namespace: 'shop' }));
    const kubeconfig = server.writeKubeconfig(path.join(dir, 'kubeconfig'));
    proc = spawnBin(SEA, ['--leader-elect', '--metrics-port', '0'], { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: db, KUBECONFIG: kubeconfig, POD_NAME: 'lb-sea', POD_NAMESPACE: 'kube-system' });
    const port = Number((await proc.waitForLog('metrics listening', 60_000))['port']);
    await proc.waitForLog('load balancer controller running', 60_000);
    await vi.waitFor(() => expect(ingressOf(server, 'shop', 'web')?.length).toBe(1), { timeout: 30_000, interval: 100 });
    const [ip] = ingressOf(server, 'shop', 'web') ?? [];
    expect(cidrContains(LB_POOL_V4.cidr, ip ?? '')).toBe(true);
    expect((await fetchStatus(port, '/readyz')).status).toBe(200);
    const { code } = await proc.terminate();
    expect(code).toBe(0);
  }, 120_000);
});
