import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { createIpamClient, type IpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import {
  CALICO_API_MODES,
  deniedRequests,
  failOnDenial,
  KUBEVIRT_RESOURCE_TYPES,
  LEASE_RESOURCE_TYPE,
  startRoleBoundServer,
  unjustifiedGrants,
  type RoleBoundServer,
} from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InformerClusterView } from '../src/cluster-view/kubernetes/informer-cluster-view.js';
import { LeaseLeaderElector } from '@ipamkit/kube-runtime/kubernetes';
import { GcController } from '../src/controller/gc-controller.js';
import { affinityHosts, allocatedIPs } from './harness.js';
import { nodeObject, podObject } from './kube-harness.js';

const MANIFESTS = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests');
const WAIT = { timeout: 30_000, interval: 100 };

// RBAC proven by behaviour (design/gc.md, "RBAC"): leader election, the cluster view and a full sync
// with a node deletion run under the manifest's ClusterRole; nothing may be refused, and every grant
// must be used or justified in the manifest.
describe.each(CALICO_API_MODES)('the garbage collector under its ClusterRole ($name group)', (mode) => {
  let bound: RoleBoundServer;
  let dir: string;
  let admin: Datastore;
  let adminIpam: IpamClient;

  beforeAll(async () => {
    bound = await startRoleBoundServer({
      manifestsDir: MANIFESTS,
      mode,
      component: 'gc',
      resourceTypes: [...KUBEVIRT_RESOURCE_TYPES, LEASE_RESOURCE_TYPE],
      options: { bookmarkIntervalMs: 200, initialNamespaces: ['default', 'kube-system'] },
    });
    dir = mkdtempSync(join(tmpdir(), 'gc-rbac-'));
    admin = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'admin'), { admin: true }), apiGroup: mode.apiGroup });
    adminIpam = createIpamClient({ datastore: admin, windowsHost: false });
  });
  afterAll(async () => {
    await admin.close();
    await bound.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wins the lease, syncs, and releases a deleted node\'s addresses and blocks and a leaked pod\'s address', async () => {
    const server = bound.server;
    server.inject(nodeObject('node-a'));
    server.inject(nodeObject('node-b'));
    await admin.ipPools.create({ name: 'default-ipv4', cidr: '192.168.0.0/24', blockSize: 26 });
    const pod = (node: string, name: string) => ({ node, namespace: 'default', pod: name });
    await adminIpam.assignIP({ ip: '192.168.0.1', hostname: 'node-a', handleId: 'k8s-pod-network.live', attrs: pod('node-a', 'live'), intendedUse: 'Workload' });
    await adminIpam.assignIP({ ip: '192.168.0.2', hostname: 'node-a', handleId: 'k8s-pod-network.gone', attrs: pod('node-a', 'gone'), intendedUse: 'Workload' });
    await adminIpam.assignIP({ ip: '192.168.0.70', hostname: 'node-b', handleId: 'k8s-pod-network.b1', attrs: pod('node-b', 'b1'), intendedUse: 'Workload' });
    server.inject(podObject({ name: 'live', node: 'node-a', ips: ['192.168.0.1'] }));
    server.inject(podObject({ name: 'b1', node: 'node-b', ips: ['192.168.0.70'] }));
    server.inject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }] } });

    const kc = new KubeConfig();
    kc.loadFromOptions(server.kubeconfigOptions());
    const elector = new LeaseLeaderElector({ kubeConfig: kc, namespace: 'kube-system', name: 'ipamkit-gc', identity: 'gc-0', retryPeriodMs: 100 });
    expect(await elector.acquire(new AbortController().signal)).toBe(true);
    // A renewal round rewrites the lease it holds.
    expect(await elector.tryAcquireOrRenew()).toBe(true);

    const ds = await createDatastore({ type: 'kubernetes', kubeconfig: server.writeKubeconfig(join(dir, 'role')), apiGroup: mode.apiGroup });
    const view = new InformerClusterView({ kubeConfig: kc, kubevirtPollMs: 100 });
    const gc = new GcController({ datastore: ds, view, leakGracePeriodMs: 1000, batchWaitMs: 50, syncPeriodMs: 500 });
    try {
      await failOnDenial(server, view.start());
      await failOnDenial(server, gc.start());
      await failOnDenial(server, vi.waitFor(() => expect(view.kubevirt).toBeDefined(), WAIT));

      // The node goes, and its pod with it.
      await fetch(`${server.url}/api/v1/namespaces/default/pods/b1`, { method: 'DELETE', headers: { authorization: `Bearer ${server.adminToken}` } });
      await admin.nodes.delete('node-b', (await admin.nodes.get('node-b')).revision);
      await failOnDenial(server, vi.waitFor(async () => expect(await allocatedIPs(admin)).toEqual(['192.168.0.1']), WAIT));
      await failOnDenial(server, vi.waitFor(async () => expect(await affinityHosts(admin)).toEqual(['node-a:192.168.0.0/26']), WAIT));
      await gc.assertConsistentState();
    } finally {
      await gc.stop();
      await view.stop();
      await ds.close();
    }
    expect(deniedRequests(server)).toEqual([]);
  }, 60_000);

  it('leaves no grant of its role unused unless the manifest justifies it', () => {
    expect(unjustifiedGrants(bound.server)).toEqual({ unjustified: [], staleJustifications: [] });
  });
});
