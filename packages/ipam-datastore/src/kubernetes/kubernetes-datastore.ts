import type { KubeConfig } from '@kubernetes/client-node';
import {
  canonicalCidr,
  cidrToName,
  type AllocationBlock,
  type BlockListOptions,
  type BlockStore,
  type CrdGroup,
  type Datastore,
  type HandleStore,
  type IpamConfigStore,
  type Versioned,
} from '@ipamkit/models';
import { kubernetesAffinityStore } from './affinity-store.js';
import { namespaceBinding, nodeBinding } from './core-bindings.js';
import { CrdModelStore } from './crd-model-store.js';
import { kubeAccessFor } from './kube-access-for.js';
import { KubeTransport } from './kube-transport.js';
import { modelBindings } from './model-bindings.js';
import { coreResourceStore, crdResourceStore } from './resource-store.js';

export type KubernetesApiGroup = 'crd.projectcalico.org/v1' | 'projectcalico.org/v3';

export interface KubernetesDatastoreConfig {
  /**
   * A kubeconfig file path or a loaded client-node KubeConfig (recognised by shape). Absent: the
   * default chain ($KUBECONFIG, in-cluster, ~/.kube/config). A path is read by the small loader;
   * client-node is loaded only for exec and auth-provider users.
   */
  readonly kubeconfig?: string | KubeConfig;
  /** The in-cluster service account directory (tests). Default `/var/run/secrets/kubernetes.io/serviceaccount`. */
  readonly serviceAccountDir?: string;
  /** Default `crd.projectcalico.org/v1`. */
  readonly apiGroup?: KubernetesApiGroup;
}

/**
 * Calico's Kubernetes datastore (KDD): IPAM objects as cluster-scoped custom resources, Calico
 * Nodes and Namespaces as views of the Kubernetes ones. No `transact`: Kubernetes cannot write
 * several objects atomically, so the core falls back to ordered writes with compensation.
 */
export async function createKubernetesDatastore(config: KubernetesDatastoreConfig = {}): Promise<Datastore> {
  const access = await kubeAccessFor(config.kubeconfig, config.serviceAccountDir === undefined ? {} : { serviceAccountDir: config.serviceAccountDir });
  const transport = new KubeTransport(access);
  const group: CrdGroup = config.apiGroup === 'projectcalico.org/v3' ? 'v3' : 'v1';
  const bindings = modelBindings(transport, group);

  const blockStore = new CrdModelStore(bindings.blocks);
  const blocks: BlockStore = {
    get: (cidr) => {
      const canonical = canonicalCidr(cidr);
      return blockStore.get(cidrToName(canonical), (b) => b.cidr === canonical);
    },
    async list(options: BlockListOptions = {}): Promise<Versioned<AllocationBlock>[]> {
      const rows = await blockStore.list();
      return options.ipVersion === undefined ? rows : rows.filter((b) => (b.cidr.includes(':') ? 6 : 4) === options.ipVersion);
    },
    create: (b) => blockStore.create(b),
    update: (b) => blockStore.update(b),
    delete: (b) => blockStore.deleteVersioned(b),
    listWithRevision: () => blockStore.listWithRevision(),
    watch: (options) => blockStore.watch(options),
  };

  const handleStore = new CrdModelStore(bindings.handles);
  const handles: HandleStore = {
    get: (id) => handleStore.get(id.toLowerCase(), (h) => h.handleId === id),
    list: () => handleStore.list(),
    create: (h) => handleStore.create(h),
    update: (h) => handleStore.update(h),
    delete: (h) => handleStore.deleteVersioned(h),
    listWithRevision: () => handleStore.listWithRevision(),
    watch: (options) => handleStore.watch(options),
  };

  const configStore = new CrdModelStore(bindings.ipamConfig);
  const ipamConfig: IpamConfigStore = {
    get: () => configStore.get('default'),
    create: (c) => configStore.create(c),
    update: (c) => configStore.update(c),
    delete: (revision) => configStore.deleteByName('default', revision),
  };

  const affinities = kubernetesAffinityStore(bindings.affinities);
  const datastore: Datastore = {
    kind: 'kubernetes',
    ipPools: crdResourceStore(bindings.ipPools),
    ipReservations: crdResourceStore(bindings.ipReservations),
    nodes: coreResourceStore(nodeBinding(transport)),
    namespaces: coreResourceStore(namespaceBinding(transport)),
    blocks,
    affinities,
    handles,
    ipamConfig,
    upgradeHost: (node) => affinities.upgradeHost(node),
    close: () => Promise.resolve(transport.close()),
  };
  return datastore;
}
