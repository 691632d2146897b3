import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type KubeFixture, nodeObject, podObject, startKube } from './kube-harness.js';
import { type BinProcess, closedPort, fetchStatus, type FlappingProxy, killBin, spawnBin, startFlappingProxy, writeKubeconfigForPort } from '@ipamkit/test-utils';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
const LEASE = { group: 'coordination.k8s.io', plural: 'leases', name: 'ipamkit-gc', namespace: 'kube-system' };
/** The acceptance bound for SIGTERM to exit (design/kube-runtime.md "Graceful shutdown"). */
const EXIT_WITHIN_MS = 5_000;

let kube: KubeFixture | undefined;
let proxy: FlappingProxy | undefined;
let proc: BinProcess | undefined;
let dir: string | undefined;

beforeAll(() => {
  expect(existsSync(BIN), `${BIN} missing: build the package first`).toBe(true);
});

afterEach(async () => {
  await killBin(proc);
  proc = undefined;
  await proxy?.close();
  proxy = undefined;
  await kube?.close();
  kube = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const env = (kubeconfig: string): NodeJS.ProcessEnv => ({ DATASTORE_TYPE: 'memory', KUBECONFIG: kubeconfig, POD_NAME: 'gc-under-test', POD_NAMESPACE: 'kube-system' });

/** A kubeconfig that reaches the test API server through `port` (a proxy or a closed port). */
async function kubeconfigVia(port: number): Promise<string> {
  kube ??= await startKube({ kubevirt: false });
  dir ??= mkdtempSync(path.join(tmpdir(), 'gc-shutdown-'));
  return writeKubeconfigForPort(kube.server.kubeconfigYaml(), kube.server.url, port, path.join(dir, `kubeconfig-${String(port)}`));
}

describe('ipamkit-gc shutdown', () => {
  it('exits 0 within 5 s of SIGTERM before the first sync, with the API server unreachable; not ready, yet serving process metrics', async () => {
    proc = spawnBin(BIN, ['--metrics-port', '0'], env(await kubeconfigVia(await closedPort())));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    await proc.waitForLog('watch failed');
    expect((await fetchStatus(port, '/healthz')).status).toBe(200);
    expect((await fetchStatus(port, '/readyz')).status).toBe(503);
    const metrics = (await fetchStatus(port, '/metrics')).text;
    expect(metrics).toContain('# TYPE process_cpu_seconds_total counter');
    expect(metrics).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(metrics).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);

  it('exits 0 within 5 s of SIGTERM during the first sync, with the API server not answering', async () => {
    kube = await startKube({ kubevirt: false });
    proxy = await startFlappingProxy(kube.server.port);
    proxy.setMode('stall');
    proc = spawnBin(BIN, ['--metrics-port', '0'], env(await kubeconfigVia(proxy.port)));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    // The lists are in flight and never answered.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetchStatus(port, '/readyz')).status).toBe(503);
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);

  it('exits 0 within 5 s of SIGTERM while waiting for leadership, leaving the holder\'s Lease alone', async () => {
    kube = await startKube({ kubevirt: false });
    const now = new Date().toISOString().replace('Z', '000Z');
    kube.server.inject({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ipamkit-gc', namespace: 'kube-system' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 60, renewTime: now, acquireTime: now, leaseTransitions: 0 } });
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], env(kube.kubeconfigPath));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    await proc.waitForLog('waiting for leadership');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetchStatus(port, '/readyz')).status).toBe(503);
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect((kube.server.readRaw(LEASE) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity).toBe('other');
  }, 60_000);

  it('turns ready after the first sync, and on SIGTERM releases the Lease and exits 0 within 5 s', async () => {
    kube = await startKube({ kubevirt: false });
    kube.server.inject(nodeObject('node-a'));
    kube.server.inject(podObject({ name: 'web', node: 'node-a', ips: ['10.0.0.5'] }));
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], env(kube.kubeconfigPath));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    await proc.waitForLog('garbage collector running');
    expect((await fetchStatus(port, '/readyz')).status).toBe(200);
    expect((kube.server.readRaw(LEASE) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity).toBe('gc-under-test');
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect((kube.server.readRaw(LEASE) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity).toBe('');
  }, 60_000);

  it('runs 20 s against a flapping API server without leaking abort listeners, then exits 0 within 5 s', async () => {
    kube = await startKube({ kubevirt: false });
    kube.server.inject(nodeObject('node-a'));
    proxy = await startFlappingProxy(kube.server.port);
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect', '--verbose'], env(await kubeconfigVia(proxy.port)));
    await proc.waitForLog('garbage collector running');
    const flapping = proxy;
    // Down 300 ms, up 500 ms, for 20 s: every reflector fails and backs off about 25 times.
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      flapping.setMode('down');
      await new Promise((resolve) => setTimeout(resolve, 300));
      flapping.setMode('up');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const running = proc;
    await vi.waitFor(() => expect(running.stderr()).toContain('"msg":"watch failed"'));
    expect(running.child.exitCode).toBeNull();
    const { code, ms } = await running.terminate();
    expect(running.stderr()).not.toContain('MaxListenersExceededWarning');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 90_000);
});
