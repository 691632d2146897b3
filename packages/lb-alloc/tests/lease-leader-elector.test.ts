import { afterEach, describe, expect, it } from 'vitest';
import { LeaseLeaderElector } from '../src/cluster-view/kubernetes/lease-leader-elector.js';
import { type KubeFixture, startKube } from './kube-harness.js';

let kube: KubeFixture | undefined;
afterEach(async () => {
  await kube?.server.close();
  kube = undefined;
});

const elector = (k: KubeFixture, identity: string, leaseDurationMs = 60_000) =>
  new LeaseLeaderElector({ kubeConfig: k.kc, namespace: 'kube-system', name: 'ipamkit-lb-alloc', identity, leaseDurationMs, retryPeriodMs: 50 });

describe('LeaseLeaderElector', () => {
  it('lets exactly one of two candidates lead while the lease is fresh', async () => {
    kube = await startKube();
    const a = elector(kube, 'a');
    const b = elector(kube, 'b');
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const lease = kube.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', namespace: 'kube-system', name: 'ipamkit-lb-alloc' }) as { spec?: { holderIdentity?: string } };
    expect(lease.spec?.holderIdentity).toBe('a');
  });

  it('hands the lease over once its holder stops renewing', async () => {
    kube = await startKube();
    const a = elector(kube, 'a', 1_000);
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const b = elector(kube, 'b', 1_000);
    const abort = new AbortController();
    // `acquire` retries every 50 ms and wins once a's 1 s lease has expired.
    expect(await b.acquire(abort.signal)).toBe(true);
    const lease = kube.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', namespace: 'kube-system', name: 'ipamkit-lb-alloc' }) as { spec?: { holderIdentity?: string; leaseTransitions?: number } };
    expect(lease.spec?.holderIdentity).toBe('b');
    expect(lease.spec?.leaseTransitions).toBe(1);
  }, 30_000);
});
