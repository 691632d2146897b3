import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { cidrContains, type Datastore } from '@ipamkit/models';
import { CALICO_API_MODES, deniedRequests, failOnDenial, LEASE_RESOURCE_TYPE, startRoleBoundServer, unjustifiedGrants, type RoleBoundServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InformerLbClusterView } from '../src/cluster-view/kubernetes/informer-lb-cluster-view.js';
import { LeaseLeaderElector } from '@ipamkit/kube-runtime/kubernetes';
import { LbController } from '../src/controller/lb-controller.js';
import { LB_POOL_V4, LB_POOL_V6, storedAllocations } from './harness.js';
import { ingressOf, serviceObject } from './kube-harness.js';

const MANIFESTS = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests');
const WAIT = { timeout: 15_000, interval: 50 };

// RBAC proven by behaviour (design/lb-alloc.md, "RBAC"): leader election, the Service watch and the
// status writes run under the manifest's ClusterRole; nothing may be refused, and every grant must be
// used or justified in the manifest.
describe.each(CALICO_API_MODES)('the LoadBalancer allocator under its ClusterRole ($name group)', (mode) => {
  let bound: RoleBoundServer;
  let dir: string;
  let admin: Datastore;

  beforeAll(async () => {
    bound = await startRoleBoundServer({
      manifestsDir: MANIFESTS,
      mode,
      component: 'lb-alloc',
      resourceTypes: [LEASE_RESOURCE_TYPE],
      options: { bookmarkIntervalMs: 200, initialNamespaces: ['default', 'shop', 'kube-system'] },
    });
    dir = mkdtempSync(join(tmpdir(), 'lb-rbac-'));
    admin = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'admin'), { admin: true }), apiGroup: mode.apiGroup });
  });
  afterAll(async () => {
    await admin.close();
    await bound.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes, moves and releases Service addresses with nothing denied', async () => {
    const server = bound.server;
    for (const pool of [LB_POOL_V4, LB_POOL_V6]) await admin.ipPools.create(pool);
    const adminKc = new KubeConfig();
    adminKc.loadFromOptions(server.kubeconfigOptions({ admin: true }));
    const core = adminKc.makeApiClient(CoreV1Api);
    const kc = new KubeConfig();
    kc.loadFromOptions(server.kubeconfigOptions());

    const elector = new LeaseLeaderElector({ kubeConfig: kc, namespace: 'kube-system', name: 'ipamkit-lb-alloc', identity: 'lb-0', retryPeriodMs: 100 });
    expect(await elector.acquire(new AbortController().signal)).toBe(true);
    expect(await elector.tryAcquireOrRenew()).toBe(true);

    const ds = await createDatastore({ type: 'kubernetes', kubeconfig: server.writeKubeconfig(join(dir, 'role')), apiGroup: mode.apiGroup });
    const view = new InformerLbClusterView({ kubeConfig: kc });
    const controller = new LbController({ datastore: ds, view, fullSyncIntervalMs: 0 });
    try {
      await failOnDenial(server, view.start());
      await failOnDenial(server, controller.start());
      await core.createNamespacedService({ namespace: 'shop', body: serviceObject({ name: 'web', namespace: 'shop', ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }) });
      await failOnDenial(server, vi.waitFor(() => expect(ingressOf(server, 'shop', 'web')?.length).toBe(2), WAIT));
      expect((ingressOf(server, 'shop', 'web') ?? []).map((ip) => cidrContains(LB_POOL_V4.cidr, ip) || cidrContains(LB_POOL_V6.cidr, ip))).toEqual([true, true]);

      const current = await core.readNamespacedService({ namespace: 'shop', name: 'web' });
      if (current.metadata === undefined || current.spec === undefined) throw new Error('the stored Service has no metadata or spec');
      current.metadata.annotations = { 'projectcalico.org/loadBalancerIPs': '["10.96.100.42"]' };
      current.spec.ipFamilies = ['IPv4'];
      current.spec.ipFamilyPolicy = 'SingleStack';
      await core.replaceNamespacedService({ namespace: 'shop', name: 'web', body: current });
      await failOnDenial(server, vi.waitFor(() => expect(ingressOf(server, 'shop', 'web')).toEqual(['10.96.100.42']), WAIT));

      await core.deleteNamespacedService({ namespace: 'shop', name: 'web' });
      await failOnDenial(server, vi.waitFor(async () => expect(await storedAllocations(admin)).toEqual([]), WAIT));
      await controller.whenIdle();
      await controller.assertConsistentState();
    } finally {
      elector.stop();
      await controller.stop();
      await view.stop();
      await ds.close();
    }
    expect(deniedRequests(server)).toEqual([]);
  }, 60_000);

  it('leaves no grant of its role unused unless the manifest justifies it', () => {
    expect(unjustifiedGrants(bound.server)).toEqual({ unjustified: [], staleJustifications: [] });
  });
});
