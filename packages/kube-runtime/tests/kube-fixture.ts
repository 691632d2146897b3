import { KubeConfig } from '@kubernetes/client-node';
import { type KubeApiServer, startKubeApiServer } from '@ipamkit/test-utils';

export interface KubeFixture {
  readonly server: KubeApiServer;
  readonly kc: KubeConfig;
}

/** The Kubernetes API test server with Leases served, and a client config for it. */
export async function startKube(): Promise<KubeFixture> {
  const server = await startKubeApiServer({
    resourceTypes: [{ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false }],
    bookmarkIntervalMs: 200,
    initialNamespaces: ['default', 'kube-system'],
  });
  const kc = new KubeConfig();
  kc.loadFromOptions(server.kubeconfigOptions());
  return { server, kc };
}

export interface LeaseSpecView {
  holderIdentity?: string;
  leaseTransitions?: number;
  leaseDurationSeconds?: number;
}

export const leaseSpec = (k: KubeFixture, name: string): LeaseSpecView | undefined =>
  (k.server.readRaw({ group: 'coordination.k8s.io', plural: 'leases', namespace: 'kube-system', name }) as { spec?: LeaseSpecView } | undefined)?.spec;
