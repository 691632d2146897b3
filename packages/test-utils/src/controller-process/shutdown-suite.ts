import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isoUtc } from '@ipamkit/models';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeApiServer } from '../kube-api-server/kube-api-server.js';
import { closedPort, type FlappingProxy, startFlappingProxy } from './flapping-proxy.js';
import { type BinProcess, fetchStatus, killBin, spawnBin, writeKubeconfigForPort } from './process-harness.js';

/** The acceptance bound for SIGTERM to exit (design/kube-runtime.md#graceful-shutdown). */
const EXIT_WITHIN_MS = 5_000;

/** A controller bin run by `describeControllerShutdown`; its name is also its Lease's. */
export interface ShutdownSubject {
  readonly name: string;
  readonly bin: string;
  /** Starts the API test server (serving Leases) and what `close` cleans up besides it. */
  startKube(): Promise<{ readonly server: KubeApiServer; close(): Promise<void> }>;
  /** Objects the controller syncs before it reports ready. */
  seed(server: KubeApiServer): void;
  /** The log message of a running controller. */
  readonly runningMessage: string;
  /** Metric types `/metrics` declares besides `process_cpu_seconds_total` before the first sync. */
  readonly metricTypes: readonly string[];
  /** The flapping run: its length and each down and up phase, ms. */
  readonly flapping: { readonly forMs: number; readonly downMs: number; readonly upMs: number };
}

/** The Lease holder of the controller `name` in kube-system, or undefined without a Lease. */
export function leaseHolder(server: KubeApiServer, name: string): string | undefined {
  const lease = server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', name, namespace: 'kube-system' }) as { spec?: { holderIdentity?: string } } | undefined;
  return lease?.spec?.holderIdentity;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The SIGTERM acceptance of a leader-elected controller bin in every state it can be in (design/test-utils.md,
 * "Controller processes"): before the first sync with the API server unreachable or stalled, waiting for
 * leadership, running, and after a run against a flapping API server (no leaked abort listeners).
 */
export function describeControllerShutdown(subject: ShutdownSubject): void {
  let kube: { readonly server: KubeApiServer; close(): Promise<void> } | undefined;
  let proxy: FlappingProxy | undefined;
  let proc: BinProcess | undefined;
  let dir: string | undefined;

  beforeAll(() => {
    expect(existsSync(subject.bin), `${subject.bin} missing: build the package first`).toBe(true);
  });

  afterEach(async () => {
    await killBin(proc);
    await proxy?.close();
    await kube?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    [proc, proxy, kube, dir] = [undefined, undefined, undefined, undefined];
  });

  const start = async (): Promise<KubeApiServer> => (kube ??= await subject.startKube()).server;
  /** Runs the bin against the test API server, directly or through `port` (a proxy or a closed port), until its metrics listen. */
  const launch = async (args: string[], port?: number): Promise<{ running: BinProcess; metricsPort: number }> => {
    const server = await start();
    dir ??= mkdtempSync(path.join(tmpdir(), `${subject.name}-shutdown-`));
    const file = path.join(dir, `kubeconfig-${String(port ?? 'direct')}`);
    const kubeconfig = port === undefined ? server.writeKubeconfig(file) : writeKubeconfigForPort(server.kubeconfigYaml(), server.url, port, file);
    const running = (proc = spawnBin(subject.bin, ['--metrics-port', '0', ...args], { DATASTORE_TYPE: 'memory', KUBECONFIG: kubeconfig, POD_NAME: `${subject.name}-under-test`, POD_NAMESPACE: 'kube-system' }));
    return { running, metricsPort: Number((await running.waitForLog('metrics listening'))['port']) };
  };
  const expectPromptExit = async (running: BinProcess): Promise<void> => {
    const { code, ms } = await running.terminate();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
  };

  describe(`${subject.name} shutdown`, () => {
    it('exits 0 within 5 s of SIGTERM before the first sync, with the API server unreachable; not ready, yet serving process metrics', async () => {
      const { running, metricsPort: port } = await launch([], await closedPort());
      await running.waitForLog('watch failed');
      expect((await fetchStatus(port, '/healthz')).status).toBe(200);
      expect((await fetchStatus(port, '/readyz')).status).toBe(503);
      const metrics = (await fetchStatus(port, '/metrics')).text;
      for (const type of ['process_cpu_seconds_total counter', ...subject.metricTypes]) expect(metrics).toContain(`# TYPE ${type}`);
      await expectPromptExit(running);
    }, 60_000);

    it('exits 0 within 5 s of SIGTERM during the first sync, with the API server not answering', async () => {
      proxy = await startFlappingProxy((await start()).port);
      proxy.setMode('stall');
      const { running, metricsPort: port } = await launch([], proxy.port);
      await pause(500); // the lists are in flight and never answered
      expect((await fetchStatus(port, '/readyz')).status).toBe(503);
      await expectPromptExit(running);
    }, 60_000);

    it("exits 0 within 5 s of SIGTERM while waiting for leadership, leaving the holder's Lease alone", async () => {
      const server = await start();
      const now = isoUtc(new Date()).replace('Z', '000Z');
      server.inject({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: subject.name, namespace: 'kube-system' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 60, renewTime: now, acquireTime: now, leaseTransitions: 0 } });
      const { running, metricsPort: port } = await launch(['--leader-elect']);
      await running.waitForLog('waiting for leadership');
      await pause(500);
      expect((await fetchStatus(port, '/readyz')).status).toBe(503);
      await expectPromptExit(running);
      expect(leaseHolder(server, subject.name)).toBe('other');
    }, 60_000);

    it('turns ready after the first sync, and on SIGTERM releases the Lease and exits 0 within 5 s', async () => {
      const server = await start();
      subject.seed(server);
      const { running, metricsPort: port } = await launch(['--leader-elect']);
      await running.waitForLog(subject.runningMessage);
      expect((await fetchStatus(port, '/readyz')).status).toBe(200);
      expect(leaseHolder(server, subject.name)).toBe(`${subject.name}-under-test`);
      await expectPromptExit(running);
      expect(leaseHolder(server, subject.name)).toBe('');
    }, 60_000);

    const { forMs, downMs, upMs } = subject.flapping;
    it(`runs ${String(forMs / 1000)} s against a flapping API server without leaking abort listeners, then exits 0 within 5 s`, async () => {
      const server = await start();
      subject.seed(server);
      const flapping = (proxy = await startFlappingProxy(server.port));
      const { running } = await launch(['--leader-elect', '--verbose'], flapping.port);
      await running.waitForLog(subject.runningMessage);
      for (const deadline = Date.now() + forMs; Date.now() < deadline; ) {
        flapping.setMode('down');
        await pause(downMs);
        flapping.setMode('up');
        await pause(upMs);
      }
      await vi.waitFor(() => expect(running.stderr()).toContain('"msg":"watch failed"'));
      expect(running.child.exitCode).toBeNull();
      await expectPromptExit(running);
      expect(running.stderr()).not.toContain('MaxListenersExceededWarning');
    }, forMs + 70_000);
  });
}
