import { KubeConfig } from '@kubernetes/client-node';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';

export interface KubeFixture {
  readonly server: KubeApiServer;
  readonly kc: KubeConfig;
}

/** The Kubernetes API test server (core Services and Namespaces are built in; Leases added). */
export async function startKube(): Promise<KubeFixture> {
  const server = await startKubeApiServer({
    bookmarkIntervalMs: 200,
    initialNamespaces: ['default', 'shop', 'kube-system'],
    resourceTypes: [{ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false }],
  });
  const kc = new KubeConfig();
  kc.loadFromOptions(server.kubeconfigOptions());
  return { server, kc };
}

export function serviceObject(args: {
  name: string;
  namespace?: string;
  type?: string;
  annotations?: Record<string, string>;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: args.name, namespace: args.namespace ?? 'default', annotations: args.annotations ?? {} },
    spec: {
      type: args.type ?? 'LoadBalancer',
      ports: [{ port: 80, protocol: 'TCP' }],
      ipFamilies: args.ipFamilies ?? ['IPv4'],
      ipFamilyPolicy: args.ipFamilyPolicy ?? 'SingleStack',
    },
  };
}

/** The `ip`s of the stored Service's `status.loadBalancer.ingress`. */
export function ingressOf(server: KubeApiServer, namespace: string, name: string): string[] | undefined {
  const obj = server.readRaw({ group: '', plural: 'services', namespace, name }) as { status?: { loadBalancer?: { ingress?: { ip?: string }[] } } } | undefined;
  return obj?.status?.loadBalancer?.ingress?.map((i) => i.ip ?? '');
}
