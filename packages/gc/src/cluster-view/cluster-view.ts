/**
 * What the collector reads about the cluster (design/calico-callers.md#gc-inputs), as projections: per pod only the
 * fields validity needs, never whole objects, so memory stays bounded at cluster scale. Two
 * implementations: MemoryClusterView (tests, simulator) and the informer-backed one under
 * `cluster-view/kubernetes/`.
 */

export interface PodProjection {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  /** `spec.nodeName`; '' when not scheduled. */
  readonly nodeName: string;
  /**
   * Every address the pod's endpoints report (`status.podIPs`, else `status.podIP`; with Multus,
   * every network's addresses). Empty until the IPs are reported.
   */
  readonly ips: readonly string[];
  readonly phase: string;
  /** `status.reason`: only live reads carry it (the cache strips it, as Calico's does). */
  readonly reason?: string;
}

export interface ClusterNode {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface VmiProjection {
  readonly namespace: string;
  readonly name: string;
  /** Kinds of the VMI's owner references (`VirtualMachine` when a VM owns it). */
  readonly ownerKinds: readonly string[];
}

/** KubeVirt's VMs and VMIs; absent from the view when KubeVirt is not installed (or not synced). */
export interface KubeVirtView {
  hasVirtualMachine(namespace: string, name: string): boolean;
  getVirtualMachineInstance(namespace: string, name: string): VmiProjection | undefined;
}

/** LoadBalancer Services, for the rule on node-less allocations (design/gc.md). */
export interface ServiceView {
  hasService(namespace: string, name: string): boolean;
}

export interface ClusterViewListener {
  podDeleted?(pod: PodProjection): void;
  nodeDeleted?(name: string): void;
  serviceDeleted?(namespace: string, name: string): void;
}

export interface ClusterView {
  /** From the cache; throws only when the cache itself fails (the caller then assumes it exists). */
  getNode(name: string): ClusterNode | undefined;
  nodeNames(): Iterable<string>;
  /** From the cache. */
  getPod(namespace: string, name: string): PodProjection | undefined;
  /** A live read (the final re-check before a release); throws on errors other than not-found. */
  readPod(namespace: string, name: string): Promise<PodProjection | undefined>;
  readonly kubevirt: KubeVirtView | undefined;
  readonly services: ServiceView | undefined;
  /** Delete notifications, the collector's fast path; returns the unsubscribe function. */
  subscribe(listener: ClusterViewListener): () => void;
}
