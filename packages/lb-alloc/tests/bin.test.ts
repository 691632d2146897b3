import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api } from '@kubernetes/client-node';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LB_POOL_V4 } from './harness.js';
import { ingressOf, type KubeFixture, serviceObject, startKube } from './kube-harness.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let kube: KubeFixture | undefined;
let child: ChildProcess | undefined;
let dir: string | undefined;

beforeAll(() => {
  // The bin is the built artefact: build the package first (tests run dist bins).
  expect(existsSync(BIN), `${BIN} missing: run tsup in packages/lb-alloc first`).toBe(true);
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
  await kube?.server.close();
  kube = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Resolves with the first stderr JSON line whose msg is `msg`. */
function waitForLog(proc: ChildProcess, msg: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`no "${msg}" log within ${String(timeoutMs)} ms; stderr so far:\n${buffered}`)), timeoutMs);
    proc.stderr?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          if (parsed['msg'] === msg) {
            clearTimeout(timer);
            resolve(parsed);
            return;
          }
        } catch {
          // not a complete JSON line yet
        }
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)} before "${msg}"; stderr:\n${buffered}`));
    });
  });
}

describe('ipamkit-lb-alloc', () => {
  it('takes the lease, assigns a Service address, serves metrics and exits cleanly on SIGTERM', async () => {
    kube = await startKube();
    dir = mkdtempSync(path.join(tmpdir(), 'lb-bin-'));
    const dbPath = path.join(dir, 'ipam.db');
    const ds = await createDatastore({ type: 'sqlite', path: dbPath });
    await ds.ipPools.create(LB_POOL_V4);
    await ds.close();
    const kubeconfig = kube.server.writeKubeconfig(path.join(dir, 'kubeconfig'));
    child = spawn(process.execPath, [BIN, '--metrics-port', '0', '--leader-elect'], {
      env: { ...process.env, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: dbPath, KUBECONFIG: kubeconfig, POD_NAME: 'lb-test', POD_NAMESPACE: 'kube-system' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const listening = waitForLog(child, 'metrics listening');
    const running = waitForLog(child, 'load balancer controller running');
    const port = Number((await listening)['port']);
    await running;
    const lease = kube.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', namespace: 'kube-system', name: 'ipamkit-lb-alloc' }) as { spec?: { holderIdentity?: string } } | undefined;
    expect(lease?.spec?.holderIdentity).toBe('lb-test');

    const core = kube.kc.makeApiClient(CoreV1Api);
    await core.createNamespacedService({ namespace: 'default', body: serviceObject({ name: 'web' }) });
    const server = kube.server;
    await vi.waitFor(() => expect(ingressOf(server, 'default', 'web')?.length).toBe(1), { timeout: 20_000, interval: 100 });

    const metrics = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
    expect(metrics).toContain('ipamkit_lb_addresses_assigned{ippool="lb-v4"} 1');

    const proc = child;
    const exit = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 60_000);

  it('prints usage for --help', async () => {
    child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = child;
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toContain('Usage: ipamkit-lb-alloc');
  }, 30_000);
});
