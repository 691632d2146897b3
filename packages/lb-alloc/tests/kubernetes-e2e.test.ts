import { CoreV1Api } from '@kubernetes/client-node';
import { cidrContains, type Datastore } from '@ipamkit/models';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InformerLbClusterView } from '../src/cluster-view/kubernetes/informer-lb-cluster-view.js';
import { LbController } from '../src/controller/lb-controller.js';
import { LB_POOL_V4, LB_POOL_V6, WORKLOAD_POOL_V4, seedPools, sqliteDatastore, storedAllocations, useLbWorlds } from './harness.js';
import { ingressOf, type KubeFixture, serviceObject, startKube } from './kube-harness.js';

useLbWorlds();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WAIT = { timeout: 15_000, interval: 50 };

async function kubeWorld(): Promise<{ kube: KubeFixture; core: CoreV1Api; ds: Datastore; controller: LbController }> {
  const kube = await startKube();
  cleanups.push(() => kube.server.close());
  const ds = await sqliteDatastore();
  cleanups.push(() => ds.close());
  await seedPools(ds, [WORKLOAD_POOL_V4, LB_POOL_V4, LB_POOL_V6]);
  const view = new InformerLbClusterView({ kubeConfig: kube.kc });
  cleanups.push(() => view.stop());
  await view.start();
  const controller = new LbController({ datastore: ds, view, fullSyncIntervalMs: 0 });
  cleanups.push(() => controller.stop());
  await controller.start();
  return { kube, core: kube.kc.makeApiClient(CoreV1Api), ds, controller };
}

describe('end to end through the Kubernetes API', () => {
  it('publishes an address from the LoadBalancer pool in the Service status and releases it on delete', async () => {
    const { kube, core, ds, controller } = await kubeWorld();
    await core.createNamespacedService({ namespace: 'shop', body: serviceObject({ name: 'web', namespace: 'shop' }) });
    await vi.waitFor(() => expect(ingressOf(kube.server, 'shop', 'web')?.length).toBe(1), WAIT);
    const [ip] = ingressOf(kube.server, 'shop', 'web') ?? [];
    expect(cidrContains(LB_POOL_V4.cidr, ip ?? '')).toBe(true);
    const allocs = await storedAllocations(ds);
    expect(allocs.map((a) => [a.ip, a.attrs['service'], a.attrs['namespace']])).toEqual([[ip, 'web', 'shop']]);

    await core.deleteNamespacedService({ namespace: 'shop', name: 'web' });
    await vi.waitFor(async () => expect(await storedAllocations(ds)).toEqual([]), WAIT);
    await controller.whenIdle();
    await controller.assertConsistentState();
  }, 60_000);

  it('gives a dual-stack Service both families and releases them when the type changes', async () => {
    const { kube, core, ds, controller } = await kubeWorld();
    await core.createNamespacedService({ namespace: 'default', body: serviceObject({ name: 'dual', ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }) });
    await vi.waitFor(() => expect(ingressOf(kube.server, 'default', 'dual')?.length).toBe(2), WAIT);
    const ingress = ingressOf(kube.server, 'default', 'dual') ?? [];
    expect(ingress.filter((ip) => cidrContains(LB_POOL_V6.cidr, ip)).length).toBe(1);

    const current = await core.readNamespacedService({ namespace: 'default', name: 'dual' });
    current.spec!.type = 'ClusterIP';
    await core.replaceNamespacedService({ namespace: 'default', name: 'dual', body: current });
    await vi.waitFor(async () => expect(await storedAllocations(ds)).toEqual([]), WAIT);
    await controller.whenIdle();
    await controller.assertConsistentState();
  }, 60_000);

  it('moves a Service to the address its annotation names, through a watch update', async () => {
    const { kube, core, ds } = await kubeWorld();
    await core.createNamespacedService({ namespace: 'default', body: serviceObject({ name: 'web' }) });
    await vi.waitFor(() => expect(ingressOf(kube.server, 'default', 'web')?.length).toBe(1), WAIT);
    const current = await core.readNamespacedService({ namespace: 'default', name: 'web' });
    const annotations = { 'projectcalico.org/loadBalancerIPs': '["10.96.100.42"]' };
    current.metadata!.annotations = annotations;
    await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: current });
    await vi.waitFor(() => expect(ingressOf(kube.server, 'default', 'web')).toEqual(['10.96.100.42']), WAIT);
    expect((await storedAllocations(ds)).map((a) => a.ip)).toEqual(['10.96.100.42']);
  }, 60_000);
});
