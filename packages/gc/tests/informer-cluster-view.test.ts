import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PodProjection } from '../src/cluster-view/cluster-view.js';
import { InformerClusterView } from '../src/cluster-view/kubernetes/informer-cluster-view.js';
import { type KubeFixture, nodeObject, podObject, startKube } from './kube-harness.js';

let kube: KubeFixture;
let view: InformerClusterView | undefined;

beforeEach(async () => {
  kube = await startKube();
});

afterEach(async () => {
  await view?.stop();
  view = undefined;
  await kube.close();
});

const waitOpts = { timeout: 15_000, interval: 25 };

describe('InformerClusterView', () => {
  it('lists nodes and pods as projections and follows later changes', async () => {
    kube.server.inject(nodeObject('node-a', { zone: 'z1' }));
    kube.server.inject(podObject({ name: 'web', node: 'node-a', ips: ['10.0.0.5', 'fd00::5'] }));
    view = new InformerClusterView({ kubeConfig: kube.kc });
    await view.start();
    expect(view.getNode('node-a')).toEqual({ name: 'node-a', labels: { zone: 'z1' } });
    const pod = view.getPod('default', 'web');
    expect(pod?.ips).toEqual(['10.0.0.5', 'fd00::5']);
    expect(pod?.nodeName).toBe('node-a');
    expect(pod?.phase).toBe('Running');
    kube.server.inject(podObject({ name: 'pending', node: 'node-a' }));
    await vi.waitFor(() => expect(view?.getPod('default', 'pending')?.ips).toEqual([]), waitOpts);
  }, 30_000);

  it('reports pod and node deletions to subscribers', async () => {
    kube.server.inject(nodeObject('node-a'));
    kube.server.inject(podObject({ name: 'web', node: 'node-a', ips: ['10.0.0.5'] }));
    view = new InformerClusterView({ kubeConfig: kube.kc });
    await view.start();
    const deletedPods: PodProjection[] = [];
    const deletedNodes: string[] = [];
    view.subscribe({ podDeleted: (p) => deletedPods.push(p), nodeDeleted: (n) => deletedNodes.push(n) });
    const core = kube.kc.makeApiClient(CoreV1Api);
    await core.deleteNamespacedPod({ name: 'web', namespace: 'default' });
    await core.deleteNode({ name: 'node-a' });
    await vi.waitFor(() => expect(deletedNodes).toEqual(['node-a']), waitOpts);
    expect(deletedPods.map((p) => `${p.namespace}/${p.name}@${p.nodeName}`)).toEqual(['default/web@node-a']);
    expect(view.getPod('default', 'web')).toBeUndefined();
  }, 30_000);

  it('keeps following changes after the history is compacted and a list fails', async () => {
    kube.server.inject(nodeObject('node-a'));
    view = new InformerClusterView({ kubeConfig: kube.kc });
    await view.start();
    kube.server.failNext({ status: 500, method: 'GET', pathIncludes: '/api/v1/nodes', times: 1 });
    kube.server.compact();
    kube.server.inject(nodeObject('node-b'));
    await vi.waitFor(() => expect([...view!.nodeNames()].sort()).toEqual(['node-a', 'node-b']), waitOpts);
  }, 30_000);

  it('reads a pod live, with its reason, and answers undefined for a missing one', async () => {
    kube.server.inject({ ...podObject({ name: 'evicted', node: 'node-a', ips: ['10.0.0.9'], phase: 'Failed' }), status: { phase: 'Failed', reason: 'Evicted', podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.9' }] } });
    view = new InformerClusterView({ kubeConfig: kube.kc, watchKubeVirt: false });
    await view.start();
    expect((await view.readPod('default', 'evicted'))?.reason).toBe('Evicted');
    expect(view.getPod('default', 'evicted')?.reason).toBeUndefined();
    expect(await view.readPod('default', 'nope')).toBeUndefined();
  }, 30_000);

  it('finds KubeVirt and serves VMs and VMIs with their owner kinds', async () => {
    kube.server.inject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1', namespace: 'default' } });
    kube.server.inject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'vm1', namespace: 'default', ownerReferences: [{ kind: 'VirtualMachine', name: 'vm1' }] } });
    view = new InformerClusterView({ kubeConfig: kube.kc });
    await view.start();
    await vi.waitFor(() => expect(view?.kubevirt).toBeDefined(), waitOpts);
    expect(view.kubevirt?.hasVirtualMachine('default', 'vm1')).toBe(true);
    expect(view.kubevirt?.getVirtualMachineInstance('default', 'vm1')?.ownerKinds).toEqual(['VirtualMachine']);
    expect(view.services?.hasService('default', 'vm1')).toBe(false);
  }, 30_000);

  it('reports KubeVirt as absent when its API is not served', async () => {
    await kube.close();
    kube = await startKube({ kubevirt: false });
    view = new InformerClusterView({ kubeConfig: kube.kc, kubevirtPollMs: 50 });
    await view.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(view.kubevirt).toBeUndefined();
  }, 30_000);
});
