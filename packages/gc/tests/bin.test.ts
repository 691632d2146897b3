import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BinProcess, fetchStatus, killBin, leaseHolder, spawnBin } from '@ipamkit/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type KubeFixture, nodeObject, startKube } from './kube-harness.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let kube: KubeFixture | undefined;
let proc: BinProcess | undefined;

beforeAll(() => {
  // The bin is the built artefact: `npm run build -w @ipamkit/gc` first (tests run dist bins).
  expect(existsSync(BIN), `${BIN} missing: build the package first`).toBe(true);
});

afterEach(async () => {
  await killBin(proc);
  proc = undefined;
  await kube?.close();
  kube = undefined;
});

describe('ipamkit-gc', () => {
  it('takes the lease, serves metrics and health, and exits cleanly on SIGTERM', async () => {
    kube = await startKube({ kubevirt: false });
    kube.server.inject(nodeObject('node-a'));
    const running = (proc = spawnBin(BIN, ['--leader-elect', '--metrics-port', '0', '--leak-grace-period', '1s'], {
      DATASTORE_TYPE: 'kubernetes',
      KUBECONFIG: kube.kubeconfigPath,
      POD_NAME: 'gc-test',
      POD_NAMESPACE: 'kube-system',
    }));
    const listening = running.waitForLog('metrics listening');
    const started = running.waitForLog('garbage collector running');
    const port = Number((await listening)['port']);
    await started;
    expect(leaseHolder(kube.server, 'ipamkit-gc')).toBe('gc-test');
    const metrics = await fetchStatus(port, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE ipam_allocations_in_use gauge');
    expect((await fetchStatus(port, '/healthz')).status).toBe(200);
    expect((await running.terminate()).code).toBe(0);
  }, 60_000);

  it('refuses an invalid grace period with a clear message', async () => {
    const running = (proc = spawnBin(BIN, ['--leak-grace-period', 'soon'], { DATASTORE_TYPE: 'memory' }));
    await vi.waitFor(() => {
      expect(running.child.exitCode).toBe(1);
      expect(running.stderr()).toContain('invalid duration "soon"');
    }, { timeout: 20_000, interval: 50 });
  }, 30_000);
});
