import { tunnelHandleId } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient, type IpamClient } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InformerClusterView } from '../src/cluster-view/kubernetes/informer-cluster-view.js';
import { GcController } from '../src/controller/gc-controller.js';
import { allocatedIPs } from './harness.js';
import { type KubeFixture, nodeObject, podObject, startKube } from './kube-harness.js';

interface KddWorld {
  readonly kube: KubeFixture;
  readonly ds: Datastore;
  readonly ipam: IpamClient;
  readonly view: InformerClusterView;
  readonly gc: GcController;
}

const worlds: KddWorld[] = [];

afterEach(async () => {
  for (const w of worlds.splice(0)) {
    try {
      await w.gc.assertConsistentState();
    } finally {
      await w.gc.stop();
      await w.view.stop();
      await w.ds.close();
      await w.kube.close();
    }
  }
});

/** The Kubernetes API test server as the datastore and the cluster: pool 192.168.0.0/24 (/26), node node-a. */
async function kddWorld(leakGracePeriodMs: number): Promise<KddWorld> {
  const kube = await startKube({ kubevirt: false });
  kube.server.inject(nodeObject('node-a'));
  const ds = await createDatastore({ type: 'kubernetes', kubeconfig: kube.kubeconfigPath });
  await ds.ipPools.create({ name: 'default-ipv4', cidr: '192.168.0.0/24', blockSize: 26 });
  const ipam = createIpamClient({ datastore: ds, windowsHost: false });
  const view = new InformerClusterView({ kubeConfig: kube.kc, watchKubeVirt: false });
  await view.start();
  const gc = new GcController({ datastore: ds, view, ipam, leakGracePeriodMs, batchWaitMs: 50 });
  const w = { kube, ds, ipam, view, gc };
  worlds.push(w);
  await gc.start();
  return w;
}

const assign = (w: KddWorld, ip: string, handleId: string, attrs: Record<string, string>, intendedUse: 'Workload' | 'Tunnel' = 'Workload') =>
  w.ipam.assignIP({ ip, hostname: 'node-a', handleId, attrs, intendedUse });

describe('Kubernetes datastore, grace period 1 s', () => {
  it('collects pod-less and mismatched allocations and keeps tunnels, attribute-less and matching ones', async () => {
    const w = await kddWorld(1000);
    const pod = (name: string) => ({ node: 'node-a', namespace: 'default', pod: name });
    await assign(w, '192.168.0.1', tunnelHandleId('ipip', 'node-a'), { node: 'node-a', type: 'ipipTunnelAddress' }, 'Tunnel');
    await assign(w, '192.168.0.2', tunnelHandleId('vxlan', 'node-a'), { node: 'node-a', type: 'vxlanTunnelAddress' }, 'Tunnel');
    await assign(w, '192.168.0.3', tunnelHandleId('wireguard', 'node-a'), { node: 'node-a', type: 'wireguardTunnelAddress' }, 'Tunnel');
    await assign(w, '192.168.0.4', 'no-attrs', { node: 'node-a' });
    await assign(w, '192.168.0.5', 'k8s-pod-network.gone', pod('gone'));
    await assign(w, '192.168.0.6', 'k8s-pod-network.match', pod('match'));
    await assign(w, '192.168.0.7', 'k8s-pod-network.dual', pod('dual'));
    await assign(w, '192.168.0.8', 'k8s-pod-network.noip', pod('noip'));
    await assign(w, '192.168.0.9', 'k8s-pod-network.other', pod('other'));
    w.kube.server.inject(podObject({ name: 'match', node: 'node-a', ips: ['192.168.0.6'] }));
    w.kube.server.inject(podObject({ name: 'dual', node: 'node-a', ips: ['192.168.0.7', 'fd00::7'] }));
    w.kube.server.inject(podObject({ name: 'noip', node: 'node-a' }));
    w.kube.server.inject(podObject({ name: 'other', node: 'node-a', ips: ['192.168.0.99'] }));
    await vi.waitFor(async () => expect(await allocatedIPs(w.ds)).not.toContain('192.168.0.5'), { timeout: 60_000, interval: 200 });
    await vi.waitFor(async () => expect(await allocatedIPs(w.ds)).not.toContain('192.168.0.9'), { timeout: 60_000, interval: 200 });
    // Several more grace periods, then everything valid is still there.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await allocatedIPs(w.ds)).toEqual(['192.168.0.1', '192.168.0.2', '192.168.0.3', '192.168.0.4', '192.168.0.6', '192.168.0.7', '192.168.0.8']);
  }, 90_000);

  it('releases an emptied second block within 15 s', async () => {
    const w = await kddWorld(1000);
    await assign(w, '192.168.0.5', 'keep', { node: 'node-a' });
    await assign(w, '192.168.0.70', 'temp', { node: 'node-a' });
    await w.ipam.releaseByHandle('temp');
    await vi.waitFor(async () => expect((await w.ds.blocks.list()).map((b) => b.cidr)).toEqual(['192.168.0.0/26']), { timeout: 15_000, interval: 200 });
  }, 30_000);
});

describe('Kubernetes datastore, grace period 5 min', () => {
  it('does not release an emptied block within 3 s', async () => {
    const w = await kddWorld(5 * 60_000);
    await assign(w, '192.168.0.5', 'keep', { node: 'node-a' });
    await assign(w, '192.168.0.70', 'temp', { node: 'node-a' });
    await w.ipam.releaseByHandle('temp');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await w.ds.blocks.list()).map((b) => b.cidr).sort()).toEqual(['192.168.0.0/26', '192.168.0.64/26']);
  }, 30_000);
});
