import type {
  ClusterNode,
  ClusterView,
  ClusterViewListener,
  KubeVirtView,
  PodProjection,
  ServiceView,
  VmiProjection,
} from './cluster-view.js';

const key = (namespace: string, name: string): string => `${namespace}/${name}`;

export interface DeleteOptions {
  /** Deliver the delete notification (default true). False models a missed watch event. */
  readonly notify?: boolean;
}

/**
 * An in-memory cluster: what tests and the simulator drive directly. Reads are synchronous and
 * `readPod` answers from the same maps; `failPodReads` makes live reads throw, as an API outage.
 */
export class MemoryClusterView implements ClusterView {
  private readonly nodes = new Map<string, ClusterNode>();
  // By namespace, then name: a lookup builds no key string (150,000 lookups per full scan).
  private readonly pods = new Map<string, Map<string, PodProjection>>();
  private readonly vms = new Set<string>();
  private readonly vmis = new Map<string, VmiProjection>();
  private readonly serviceKeys = new Set<string>();
  private readonly listeners = new Set<ClusterViewListener>();
  private kubevirtInstalled = false;
  private servicesWatched = false;
  /** When set, `readPod` throws it. */
  failPodReads: Error | undefined;

  readonly kubevirtView: KubeVirtView = {
    hasVirtualMachine: (namespace, name) => this.vms.has(key(namespace, name)),
    getVirtualMachineInstance: (namespace, name) => this.vmis.get(key(namespace, name)),
  };

  readonly serviceView: ServiceView = {
    hasService: (namespace, name) => this.serviceKeys.has(key(namespace, name)),
  };

  get kubevirt(): KubeVirtView | undefined {
    return this.kubevirtInstalled ? this.kubevirtView : undefined;
  }

  get services(): ServiceView | undefined {
    return this.servicesWatched ? this.serviceView : undefined;
  }

  getNode(name: string): ClusterNode | undefined {
    return this.nodes.get(name);
  }

  nodeNames(): Iterable<string> {
    return this.nodes.keys();
  }

  getPod(namespace: string, name: string): PodProjection | undefined {
    return this.pods.get(namespace)?.get(name);
  }

  readPod(namespace: string, name: string): Promise<PodProjection | undefined> {
    if (this.failPodReads !== undefined) return Promise.reject(this.failPodReads);
    return Promise.resolve(this.getPod(namespace, name));
  }

  subscribe(listener: ClusterViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- driving the cluster -----------------------------------------------------------------

  upsertNode(name: string, labels: Record<string, string> = {}): void {
    this.nodes.set(name, { name, labels: { ...labels } });
  }

  deleteNode(name: string, options: DeleteOptions = {}): void {
    if (!this.nodes.delete(name)) return;
    if (options.notify !== false) for (const l of this.listeners) l.nodeDeleted?.(name);
  }

  upsertPod(pod: Omit<PodProjection, 'uid' | 'phase'> & { uid?: string; phase?: string }): PodProjection {
    // The projection's fields only, in one fixed order: a spread of the argument gave every pod its
    // own hidden class (about 280 bytes of shape per pod at 150,000 pods; design/gc.md "Performance").
    const uid = pod.uid ?? key(pod.namespace, pod.name);
    const phase = pod.phase ?? 'Running';
    const ips = [...pod.ips];
    const { name, namespace, nodeName, reason } = pod;
    const stored: PodProjection = reason === undefined ? { uid, name, namespace, nodeName, ips, phase } : { uid, name, namespace, nodeName, ips, phase, reason };
    let inNamespace = this.pods.get(pod.namespace);
    if (inNamespace === undefined) {
      inNamespace = new Map();
      this.pods.set(pod.namespace, inNamespace);
    }
    inNamespace.set(pod.name, stored);
    return stored;
  }

  deletePod(namespace: string, name: string, options: DeleteOptions = {}): void {
    const pod = this.getPod(namespace, name);
    if (pod === undefined) return;
    this.pods.get(namespace)?.delete(name);
    if (options.notify !== false) for (const l of this.listeners) l.podDeleted?.(pod);
  }

  setKubeVirtInstalled(installed: boolean): void {
    this.kubevirtInstalled = installed;
  }

  upsertVirtualMachine(namespace: string, name: string): void {
    this.vms.add(key(namespace, name));
  }

  upsertVirtualMachineInstance(vmi: VmiProjection): void {
    this.vmis.set(key(vmi.namespace, vmi.name), { ...vmi, ownerKinds: [...vmi.ownerKinds] });
  }

  /** Turns on the Service view (the rule for LoadBalancer addresses needs a Service source). */
  setServicesWatched(watched: boolean): void {
    this.servicesWatched = watched;
  }

  upsertService(namespace: string, name: string): void {
    this.serviceKeys.add(key(namespace, name));
  }

  deleteService(namespace: string, name: string, options: DeleteOptions = {}): void {
    if (!this.serviceKeys.delete(key(namespace, name))) return;
    if (options.notify !== false) for (const l of this.listeners) l.serviceDeleted?.(namespace, name);
  }
}
