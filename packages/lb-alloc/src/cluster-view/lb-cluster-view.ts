import type { Namespace } from '@ipamkit/models';
import type { LbService } from '../service/lb-service.js';

export interface LbClusterViewListener {
  /** A Service was added, changed or deleted (a delete arrives after it left the cache). */
  serviceChanged(namespace: string, name: string): void;
}

/**
 * What the controller reads and writes of the cluster: Services (as LbService projections) and
 * Namespaces (for pool `namespaceSelector`), plus the one write it makes, the Service's
 * `status.loadBalancer.ingress`. Two implementations: MemoryLbClusterView (tests, simulator) and
 * the informer-backed one under `cluster-view/kubernetes/`.
 */
export interface LbClusterView {
  getService(namespace: string, name: string): LbService | undefined;
  listServices(): Iterable<LbService>;
  getNamespace(name: string): Namespace | undefined;
  /** Replaces `status.loadBalancer.ingress` with one `{ ip }` entry per address. */
  writeIngress(service: LbService, ips: readonly string[]): Promise<void>;
  subscribe(listener: LbClusterViewListener): () => void;
}
