import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type KubeFixture, serviceObject, startKube } from './kube-harness.js';
import { type BinProcess, closedPort, fetchStatus, type FlappingProxy, killBin, spawnBin, startFlappingProxy, writeKubeconfigForPort } from '@ipamkit/test-utils';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
const LEASE = { group: 'coordination.k8s.io', plural: 'leases', name: 'ipamkit-lb-alloc', namespace: 'kube-system' };
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
  await kube?.server.close();
  kube = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const env = (kubeconfig: string): NodeJS.ProcessEnv => ({ DATASTORE_TYPE: 'memory', KUBECONFIG: kubeconfig, POD_NAME: 'lb-under-test', POD_NAMESPACE: 'kube-system' });
const holderOf = (k: KubeFixture): string | undefined => (k.server.readRaw(LEASE) as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity;

/** A kubeconfig that reaches the test API server through `port` (a proxy or a closed port). */
async function kubeconfigVia(port: number): Promise<string> {
  kube ??= await startKube();
  dir ??= mkdtempSync(path.join(tmpdir(), 'lb-shutdown-'));
  return writeKubeconfigForPort(kube.server.kubeconfigYaml(), kube.server.url, port, path.join(dir, `kubeconfig-${String(port)}`));
}

describe('ipamkit-lb-alloc shutdown', () => {
  it('exits 0 within 5 s of SIGTERM before the first sync, with the API server unreachable; not ready, yet serving process metrics', async () => {
    proc = spawnBin(BIN, ['--metrics-port', '0'], env(await kubeconfigVia(await closedPort())));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    await proc.waitForLog('watch failed');
    expect((await fetchStatus(port, '/healthz')).status).toBe(200);
    expect((await fetchStatus(port, '/readyz')).status).toBe(503);
    const metrics = (await fetchStatus(port, '/metrics')).text;
    expect(metrics).toContain('# TYPE process_cpu_seconds_total counter');
    expect(metrics).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);

  it('exits 0 within 5 s of SIGTERM during the first sync, with the API server not answering', async () => {
    kube = await startKube();
    proxy = await startFlappingProxy(kube.server.port);
    proxy.setMode('stall');
    proc = spawnBin(BIN, ['--metrics-port', '0'], env(await kubeconfigVia(proxy.port)));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    // The Service and Namespace lists are in flight and never answered.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetchStatus(port, '/readyz')).status).toBe(503);
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);

  it('exits 0 within 5 s of SIGTERM while waiting for leadership, leaving the holder\'s Lease alone', async () => {
    kube = await startKube();
    const now = new Date().toISOString().replace('Z', '000Z');
    kube.server.inject({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ipamkit-lb-alloc', namespace: 'kube-system' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 60, renewTime: now, acquireTime: now, leaseTransitions: 0 } });
    dir = mkdtempSync(path.join(tmpdir(), 'lb-shutdown-'));
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], env(kube.server.writeKubeconfig(path.join(dir, 'kubeconfig'))));
    await proc.waitForLog('waiting for leadership');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(holderOf(kube)).toBe('other');
  }, 60_000);

  it('turns ready after the first sync, and on SIGTERM releases the Lease and exits 0 within 5 s', async () => {
    kube = await startKube();
    kube.server.inject(serviceObject({ name: 'web' }));
    dir = mkdtempSync(path.join(tmpdir(), 'lb-shutdown-'));
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], env(kube.server.writeKubeconfig(path.join(dir, 'kubeconfig'))));
    const port = Number((await proc.waitForLog('metrics listening'))['port']);
    await proc.waitForLog('load balancer controller running');
    expect((await fetchStatus(port, '/readyz')).status).toBe(200);
    expect(holderOf(kube)).toBe('lb-under-test');
    const { code, ms } = await proc.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(holderOf(kube)).toBe('');
  }, 60_000);

  it('runs 12 s against a flapping API server without leaking abort listeners, then exits 0 within 5 s', async () => {
    kube = await startKube();
    proxy = await startFlappingProxy(kube.server.port);
    proc = spawnBin(BIN, ['--metrics-port', '0', '--leader-elect'], env(await kubeconfigVia(proxy.port)));
    await proc.waitForLog('load balancer controller running');
    const flapping = proxy;
    for (const deadline = Date.now() + 12_000; Date.now() < deadline; ) {
      flapping.setMode('down');
      await new Promise((resolve) => setTimeout(resolve, 250));
      flapping.setMode('up');
      await new Promise((resolve) => setTimeout(resolve, 350));
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
