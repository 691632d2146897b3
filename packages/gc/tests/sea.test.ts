import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BinProcess, fetchStatus, killBin, spawnBin } from '@ipamkit/test-utils';
import { type KubeFixture, nodeObject, startKube } from './kube-harness.js';

// The single executable the image ships (design/gc.md, "Single executable"), exec'd as the
// container runtime does: no node, no node_modules.
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEA = path.join(PACKAGE, 'dist/ipamkit-gc');
const { version } = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as { version: string };

let kube: KubeFixture | undefined;
let proc: BinProcess | undefined;

beforeAll(() => {
  expect(existsSync(SEA), `${SEA} missing: build the package first`).toBe(true);
});

afterEach(async () => {
  await killBin(proc);
  proc = undefined;
  await kube?.close();
  kube = undefined;
});

describe('the ipamkit-gc single executable', () => {
  it('answers --version and --help', () => {
    expect(execFileSync(SEA, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(SEA, ['--help'], { encoding: 'utf8' })).toContain('Usage: ipamkit-gc');
  });

  it('takes the Lease with the bundled Kubernetes client, finishes a full sync on the Kubernetes datastore, and exits 0 on SIGTERM', async () => {
    kube = await startKube({ kubevirt: false });
    kube.server.inject(nodeObject('node-a'));
    proc = spawnBin(SEA, ['--leader-elect', '--metrics-port', '0'], { DATASTORE_TYPE: 'kubernetes', KUBECONFIG: kube.kubeconfigPath, POD_NAME: 'gc-sea', POD_NAMESPACE: 'kube-system' });
    const port = Number((await proc.waitForLog('metrics listening', 60_000))['port']);
    await proc.waitForLog('garbage collector running', 60_000);
    const lease = kube.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', name: 'ipamkit-gc', namespace: 'kube-system' }) as { spec?: { holderIdentity?: string } };
    expect(lease.spec?.holderIdentity).toBe('gc-sea');
    expect((await fetchStatus(port, '/readyz')).status).toBe(200);
    expect((await fetchStatus(port, '/metrics')).text).toContain('# TYPE ipam_allocations_in_use gauge');
    const { code } = await proc.terminate();
    expect(code).toBe(0);
    expect(proc.stderr()).not.toContain('ExperimentalWarning');
  }, 120_000);
});
