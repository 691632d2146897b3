import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api } from '@kubernetes/client-node';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { type BinProcess, fetchStatus, killBin, leaseHolder, spawnBin } from '@ipamkit/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LB_POOL_V4 } from './harness.js';
import { ingressOf, type KubeFixture, serviceObject, startKube } from './kube-harness.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let kube: KubeFixture | undefined;
let proc: BinProcess | undefined;
let dir: string | undefined;

beforeAll(() => {
  // The bin is the built artefact: build the package first (tests run dist bins).
  expect(existsSync(BIN), `${BIN} missing: run tsup in packages/lb-alloc first`).toBe(true);
});

afterEach(async () => {
  await killBin(proc);
  proc = undefined;
  await kube?.server.close();
  kube = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('ipamkit-lb-alloc', () => {
  it('takes the lease, assigns a Service address, serves metrics and exits cleanly on SIGTERM', async () => {
    kube = await startKube();
    dir = mkdtempSync(path.join(tmpdir(), 'lb-bin-'));
    const dbPath = path.join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path: dbPath });
    await ds.ipPools.create(LB_POOL_V4);
    await ds.close();
    const kubeconfig = kube.server.writeKubeconfig(path.join(dir, 'kubeconfig'));
    const running = (proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], {
      DATASTORE_TYPE: 'sqlite',
      IPAMKIT_SQLITE_PATH: dbPath,
      KUBECONFIG: kubeconfig,
      POD_NAME: 'lb-test',
      POD_NAMESPACE: 'kube-system',
    }));
    const listening = running.waitForLog('metrics listening');
    const started = running.waitForLog('load balancer controller running');
    const port = Number((await listening)['port']);
    await started;
    expect(leaseHolder(kube.server, 'ipamkit-lb-alloc')).toBe('lb-test');

    const core = kube.kc.makeApiClient(CoreV1Api);
    await core.createNamespacedService({ namespace: 'default', body: serviceObject({ name: 'web' }) });
    const server = kube.server;
    await vi.waitFor(() => expect(ingressOf(server, 'default', 'web')?.length).toBe(1), { timeout: 20_000, interval: 100 });

    expect((await fetchStatus(port, '/metrics')).text).toContain('ipamkit_lb_addresses_assigned{ippool="lb-v4"} 1');
    expect((await running.terminate()).code).toBe(0);
  }, 60_000);

  it('prints usage for --help', () => {
    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: ipamkit-lb-alloc');
  }, 30_000);
});
