import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient } from '@ipamkit/ipam-core';
import type { Datastore, Node } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryClusterView } from '../src/cluster-view/memory-cluster-view.js';
import { GcController } from '../src/controller/gc-controller.js';
import { allocatedIPs } from './harness.js';

const etcd = withEtcd();
let prefixes = 0;
const running: { gc: GcController; ds: Datastore }[] = [];

afterEach(async () => {
  for (const { gc, ds } of running.splice(0)) {
    try {
      await gc.assertConsistentState();
    } finally {
      await gc.stop();
      await ds.close();
    }
  }
});

function calicoNode(name: string, k8sName?: string): Node {
  return k8sName === undefined ? { name } : { name, unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName: k8sName }] } } };
}

/** etcd with a /24 pool, the given Calico nodes, and a background collector (grace 15 min). */
async function etcdWorld(calicoNodes: Node[], k8sNodes: string[]) {
  prefixes++;
  const ds = await createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix: `/gc-${process.pid}-${prefixes}` });
  await ds.ipPools.create({ name: 'p', cidr: '192.168.0.0/24', blockSize: 26 });
  await ds.nodes.create({ name: 'host' });
  for (const n of calicoNodes) await ds.nodes.create(n);
  const view = new MemoryClusterView();
  for (const n of k8sNodes) view.upsertNode(n);
  const ipam = createIpamClient({ datastore: ds, windowsHost: false });
  const gc = new GcController({ datastore: ds, view, ipam, leakGracePeriodMs: 15 * 60_000, batchWaitMs: 50 });
  expect(gc.settings.leakGracePeriodMs).toBe(900_000);
  running.push({ gc, ds });
  await gc.start();
  return { ds, view, ipam, gc };
}

const podless = (node: string) => ({ node, namespace: 'default', pod: 'no-such-pod' });

describe('etcd mode (Calico and Kubernetes node names differ)', () => {
  it('keeps a pod-less allocation while the k8s node exists and collects it once the node is deleted', async () => {
    const w = await etcdWorld([calicoNode('calinodename', 'k8snodename')], ['k8snodename']);
    await w.ipam.assignIP({ ip: '192.168.0.5', hostname: 'host', handleId: 'k8s-pod-network.a', attrs: podless('calinodename'), intendedUse: 'Workload' });
    await vi.waitFor(() => expect(w.gc.state.allocationsByNode.get('calinodename')?.size).toBe(1), { timeout: 10_000, interval: 25 });
    await w.gc.syncNow({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['192.168.0.5']);
    expect(w.gc.state.kubernetesNodesByCalicoName.get('calinodename')).toBe('k8snodename');
    w.view.deleteNode('k8snodename');
    await vi.waitFor(async () => expect(await allocatedIPs(w.ds)).toEqual([]), { timeout: 5_000, interval: 50 });
    // The node deleter removes the Calico node whose Kubernetes node is gone.
    await vi.waitFor(async () => expect((await w.ds.nodes.list()).map((n) => n.name)).toEqual(['host']), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it('never collects an attribute-less allocation on a node that is not Kubernetes’', async () => {
    const w = await etcdWorld([calicoNode('shared')], ['shared']);
    await w.ipam.assignIP({ ip: '192.168.0.6', hostname: 'host', handleId: 'manual', attrs: { node: 'shared' }, intendedUse: 'Workload' });
    await vi.waitFor(() => expect(w.gc.state.allocationsByNode.get('shared')?.size).toBe(1), { timeout: 10_000, interval: 25 });
    w.view.deleteNode('shared');
    await w.gc.whenIdle();
    await w.gc.syncNow({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['192.168.0.6']);
    await w.ds.nodes.delete('shared');
    await vi.waitFor(() => expect(w.gc.state.kubernetesNodesByCalicoName.has('shared')).toBe(false), { timeout: 10_000, interval: 25 });
    await w.gc.syncNow({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['192.168.0.6']);
  }, 30_000);

  it('collects a pod-less allocation whose Calico node is missing even though a k8s node has its name', async () => {
    const w = await etcdWorld([], ['ghost']);
    await w.ipam.assignIP({ ip: '192.168.0.7', hostname: 'host', handleId: 'k8s-pod-network.c', attrs: podless('ghost'), intendedUse: 'Workload' });
    await vi.waitFor(async () => expect(await allocatedIPs(w.ds)).toEqual([]), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it('collects a pod-less allocation when neither node exists', async () => {
    const w = await etcdWorld([], []);
    await w.ipam.assignIP({ ip: '192.168.0.8', hostname: 'host', handleId: 'k8s-pod-network.d', attrs: podless('nowhere'), intendedUse: 'Workload' });
    await vi.waitFor(async () => expect(await allocatedIPs(w.ds)).toEqual([]), { timeout: 10_000, interval: 50 });
  }, 30_000);
});
