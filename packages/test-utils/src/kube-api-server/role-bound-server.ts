import path from 'node:path';
import { loadClusterRole, type ClusterRole } from './cluster-role.js';
import { startKubeApiServer, type KubeApiServer, type KubeApiServerOptions } from './kube-api-server.js';
import { leastPrivilegeReport } from './rbac-authorizer.js';
import type { ResourceType } from './resource-types.js';

/** The two ways Calico stores IPAM in Kubernetes, with where our manifests keep each one's CRDs and roles. */
export interface CalicoApiMode {
  readonly name: 'v1' | 'v3';
  /** The datastore's `apiGroup`. */
  readonly apiGroup: 'crd.projectcalico.org/v1' | 'projectcalico.org/v3';
  /** Under `packages/ipam-datastore/manifests`. */
  readonly crdDir: string;
  readonly rbacDir: string;
}

export const CALICO_API_MODES: readonly CalicoApiMode[] = [
  { name: 'v1', apiGroup: 'crd.projectcalico.org/v1', crdDir: 'crds', rbacDir: 'rbac' },
  { name: 'v3', apiGroup: 'projectcalico.org/v3', crdDir: 'crds-v3', rbacDir: 'rbac-v3' },
];

/** KubeVirt's VMs and VMIs, served without schemas (the CNI and the GC read them). */
export const KUBEVIRT_RESOURCE_TYPES: readonly ResourceType[] = [
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines', kind: 'VirtualMachine', namespaced: true, statusSubresource: true },
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances', kind: 'VirtualMachineInstance', namespaced: true, statusSubresource: true },
];

/** coordination.k8s.io Leases (leader election of the GC and the LoadBalancer allocator). */
export const LEASE_RESOURCE_TYPE: ResourceType = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false };

export interface RoleBoundServer {
  readonly server: KubeApiServer;
  readonly role: ClusterRole;
  readonly mode: CalicoApiMode;
}

/**
 * The API test server serving `mode`'s CRDs, with `component`'s ClusterRole from
 * `<manifestsDir>/<mode.rbacDir>/<component>.yaml` bound to its token (design/test-utils.md, "The
 * RBAC authorizer"). Seed and inspect through `adminToken`; run the component with `token`.
 */
export async function startRoleBoundServer(args: {
  readonly manifestsDir: string;
  readonly mode: CalicoApiMode;
  readonly component: string;
  readonly options?: Omit<KubeApiServerOptions, 'crdDirectories' | 'clusterRole'>;
  readonly resourceTypes?: readonly ResourceType[];
}): Promise<RoleBoundServer> {
  const role = loadClusterRole(path.join(args.manifestsDir, args.mode.rbacDir, `${args.component}.yaml`));
  const server = await startKubeApiServer({
    ...args.options,
    crdDirectories: [path.join(args.manifestsDir, args.mode.crdDir)],
    ...(args.resourceTypes === undefined ? {} : { resourceTypes: args.resourceTypes }),
    clusterRole: role,
    userName: `system:serviceaccount:kube-system:ipamkit-${args.component}`,
  });
  return { server, role, mode: args.mode };
}

/** `PATCH /api/v1/nodes/n1 (patch nodes)` for every request the role refused so far. */
export function deniedRequests(server: KubeApiServer): string[] {
  return (server.authorizer?.denials ?? []).map((d) => {
    const a = d.attributes;
    const what = a.kind === 'non-resource' ? a.path : `${a.subresource === undefined ? a.resource : `${a.resource}/${a.subresource}`}${a.group === '' ? '' : `.${a.group}`}`;
    return `${d.method} ${d.path} (${a.verb} ${what})`;
  });
}

/** The role's grants the flows never used, without a `# justified:` comment, and justified ones they did use. */
export function unjustifiedGrants(server: KubeApiServer): { unjustified: string[]; staleJustifications: string[] } {
  const authorizer = server.authorizer;
  if (authorizer === undefined) throw new Error('the server has no ClusterRole');
  return leastPrivilegeReport(authorizer);
}

/**
 * `work`, or a rejection naming the refused requests as soon as the role refuses one: a component
 * that retries a 403 forever would otherwise only time out.
 */
export async function failOnDenial<T>(server: KubeApiServer, work: Promise<T>, pollMs = 50): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const denied = new Promise<never>((_resolve, reject) => {
    const check = (): void => {
      const denials = deniedRequests(server);
      if (denials.length > 0) reject(new Error(`the ClusterRole refused: ${denials.join('; ')}`));
      else timer = setTimeout(check, pollMs);
    };
    check();
  });
  try {
    return await Promise.race([work, denied]);
  } finally {
    clearTimeout(timer);
  }
}
