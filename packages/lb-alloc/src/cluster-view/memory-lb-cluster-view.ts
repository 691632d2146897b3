import type { Namespace } from '@ipamkit/models';
import { namespacedName, type LbService } from '../service/lb-service.js';
import type { LbClusterView, LbClusterViewListener } from './lb-cluster-view.js';

export interface MemoryServiceInput extends Partial<Omit<LbService, 'name' | 'namespace'>> {
  readonly name: string;
  readonly namespace?: string;
}

/**
 * An in-memory cluster the tests and the simulator drive directly. Upserting a Service creates
 * its Namespace when missing (as a real cluster always has it); `failStatusWrites` makes status
 * writes reject, as an API outage.
 */
export class MemoryLbClusterView implements LbClusterView {
  private readonly services = new Map<string, LbService>();
  private readonly namespaces = new Map<string, Namespace>();
  private readonly listeners = new Set<LbClusterViewListener>();
  private uidCounter = 0;
  /** When set, `writeIngress` rejects with it. */
  failStatusWrites: Error | undefined;

  getService(namespace: string, name: string): LbService | undefined {
    return this.services.get(namespacedName(namespace, name));
  }

  listServices(): Iterable<LbService> {
    return this.services.values();
  }

  getNamespace(name: string): Namespace | undefined {
    return this.namespaces.get(name);
  }

  writeIngress(service: LbService, ips: readonly string[]): Promise<void> {
    if (this.failStatusWrites !== undefined) return Promise.reject(this.failStatusWrites);
    const id = namespacedName(service.namespace, service.name);
    const current = this.services.get(id);
    // Like the status subresource with a UID precondition: a re-created Service is not written.
    if (current?.uid !== service.uid) return Promise.resolve();
    this.services.set(id, { ...current, ingressIPs: [...ips] });
    this.notify(service.namespace, service.name);
    return Promise.resolve();
  }

  subscribe(listener: LbClusterViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- driving the cluster -----------------------------------------------------------------

  /** Adds or replaces a Service; fields default to a SingleStack IPv4 LoadBalancer Service. */
  upsertService(input: MemoryServiceInput, options: { notify?: boolean } = {}): LbService {
    const namespace = input.namespace ?? 'default';
    const previous = this.services.get(namespacedName(namespace, input.name));
    const svc: LbService = {
      type: 'LoadBalancer',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      annotations: {},
      ingressIPs: previous?.ingressIPs ?? [],
      ...input,
      namespace,
      uid: input.uid ?? previous?.uid ?? `uid-${String(++this.uidCounter)}`,
    };
    if (!this.namespaces.has(namespace)) this.namespaces.set(namespace, { name: namespace });
    this.services.set(namespacedName(namespace, input.name), svc);
    if (options.notify !== false) this.notify(namespace, input.name);
    return svc;
  }

  deleteService(namespace: string, name: string, options: { notify?: boolean } = {}): void {
    if (!this.services.delete(namespacedName(namespace, name))) return;
    if (options.notify !== false) this.notify(namespace, name);
  }

  private notify(namespace: string, name: string): void {
    for (const l of this.listeners) l.serviceChanged(namespace, name);
  }
}
