import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { startKubeApiServer, type KubeApiServer, type ResourceType } from '@ipamkit/test-utils';

export const CRD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ipam-datastore/manifests/crds');

/** KubeVirt and Lease types, served without schemas, besides the Calico CRDs and core kinds. */
export const EXTRA_TYPES: ResourceType[] = [
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines', kind: 'VirtualMachine', namespaced: true, statusSubresource: true },
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances', kind: 'VirtualMachineInstance', namespaced: true, statusSubresource: true },
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false },
];

export interface KubeFixture {
  readonly server: KubeApiServer;
  readonly kc: KubeConfig;
  readonly kubeconfigPath: string;
  close(): Promise<void>;
}

export async function startKube(options: { kubevirt?: boolean } = {}): Promise<KubeFixture> {
  const types = options.kubevirt === false ? EXTRA_TYPES.filter((t) => t.group !== 'kubevirt.io') : EXTRA_TYPES;
  const server = await startKubeApiServer({ crdDirectories: [CRD_DIR], resourceTypes: types, bookmarkIntervalMs: 200, initialNamespaces: ['default', 'kube-system'] });
  const kc = new KubeConfig();
  kc.loadFromOptions(server.kubeconfigOptions());
  const dir = mkdtempSync(path.join(tmpdir(), 'gc-kube-'));
  const kubeconfigPath = server.writeKubeconfig(path.join(dir, 'kubeconfig'));
  return {
    server,
    kc,
    kubeconfigPath,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function podObject(args: { name: string; namespace?: string; node: string; ips?: string[]; phase?: string }): Record<string, unknown> {
  const ips = args.ips ?? [];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: args.name, namespace: args.namespace ?? 'default' },
    spec: { nodeName: args.node, containers: [{ name: 'c', image: 'pause' }] },
    status: { phase: args.phase ?? 'Running', ...(ips.length === 0 ? {} : { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) }) },
  };
}

export function nodeObject(name: string, labels: Record<string, string> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } };
}
