import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type KubeFixture, nodeObject, startKube } from './kube-harness.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let kube: KubeFixture | undefined;
let child: ChildProcess | undefined;

beforeAll(() => {
  // The bin is the built artefact: `npm run build -w @ipamkit/gc` first (CONVENTIONS: tests run dist bins).
  expect(existsSync(BIN), `${BIN} missing: build the package first`).toBe(true);
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
  }
  child = undefined;
  await kube?.close();
  kube = undefined;
});

/** Resolves with the first stderr JSON line whose msg is `msg`. */
function waitForLog(proc: ChildProcess, msg: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`no "${msg}" log within ${timeoutMs} ms; stderr so far:\n${buffered}`)), timeoutMs);
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

describe('ipamkit-gc', () => {
  it('takes the lease, serves metrics and health, and exits cleanly on SIGTERM', async () => {
    kube = await startKube({ kubevirt: false });
    kube.server.inject(nodeObject('node-a'));
    child = spawn(process.execPath, [BIN, '--leader-elect', '--metrics-port', '0', '--leak-grace-period', '1s'], {
      env: { ...process.env, DATASTORE_TYPE: 'kubernetes', KUBECONFIG: kube.kubeconfigPath, POD_NAME: 'gc-test', POD_NAMESPACE: 'kube-system' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const listening = waitForLog(child, 'metrics listening');
    const running = waitForLog(child, 'garbage collector running');
    const { port } = await listening;
    await running;
    const lease = kube.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', name: 'ipamkit-gc', namespace: 'kube-system' }) as { spec?: { holderIdentity?: string } };
    expect(lease.spec?.holderIdentity).toBe('gc-test');
    const metrics = await fetch(`http://127.0.0.1:${String(port)}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# TYPE ipam_allocations_in_use gauge');
    expect((await fetch(`http://127.0.0.1:${String(port)}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('refuses an invalid grace period with a clear message', async () => {
    child = spawn(process.execPath, [BIN, '--leak-grace-period', 'soon'], { env: { ...process.env, DATASTORE_TYPE: 'memory' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child?.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('invalid duration "soon"');
  }, 30_000);
});
