import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { Namespace } from '@ipamkit/models';
import type { LbClusterView, LbClusterViewListener } from '../lb-cluster-view.js';
import { namespacedName, type LbService } from '../../service/lb-service.js';
import { projectNamespace, projectService } from './project-service.js';
import { Reflector } from '@ipamkit/kube-runtime/kubernetes';

export interface InformerLbClusterViewOptions {
  readonly kubeConfig: KubeConfig;
  /** Status writes time out after this long (design/calico-callers.md#loadbalancer-configuration: 10 s). */
  readonly statusTimeoutMs?: number;
  readonly onError?: (what: string, err: unknown) => void;
}

const PAGE = 500;

/**
 * The cluster view over the Kubernetes API (the only module tree in lb-alloc that imports the
 * client): Services and Namespaces through list-then-watch reflectors, and the ingress list written
 * with a merge patch on the `status` subresource, guarded by the Service's UID.
 */
export class InformerLbClusterView implements LbClusterView {
  private readonly core: CoreV1Api;
  private readonly listeners = new Set<LbClusterViewListener>();
  private readonly services: Reflector<LbService>;
  private readonly namespaces: Reflector<Namespace>;

  constructor(private readonly options: InformerLbClusterViewOptions) {
    const kc = options.kubeConfig;
    this.core = kc.makeApiClient(CoreV1Api);
    const page = (cont: string | undefined) => ({ limit: PAGE, ...(cont === undefined ? {} : { _continue: cont }) });
    this.services = new Reflector({
      kc,
      path: '/api/v1/services',
      list: (cont) => this.core.listServiceForAllNamespaces(page(cont)),
      project: projectService,
      key: (s) => namespacedName(s.namespace, s.name),
      onChange: (s) => this.emitChanged(s),
      onDelete: (s) => this.emitChanged(s),
      onError: (err) => options.onError?.('services', err),
    });
    this.namespaces = new Reflector({
      kc,
      path: '/api/v1/namespaces',
      list: (cont) => this.core.listNamespace(page(cont)),
      project: projectNamespace,
      key: (n) => n.name,
      onError: (err) => options.onError?.('namespaces', err),
    });
  }

  /** Starts both reflectors; resolves once both have listed (design/calico-callers.md#cold-start-and-events step 1). */
  async start(): Promise<void> {
    this.services.start();
    this.namespaces.start();
    await Promise.all([this.services.synced, this.namespaces.synced]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.services.stop(), this.namespaces.stop()]);
  }

  getService(namespace: string, name: string): LbService | undefined {
    return this.services.items.get(namespacedName(namespace, name));
  }

  listServices(): Iterable<LbService> {
    return this.services.items.values();
  }

  getNamespace(name: string): Namespace | undefined {
    return this.namespaces.items.get(name);
  }

  async writeIngress(service: LbService, ips: readonly string[]): Promise<void> {
    const body = { metadata: { uid: service.uid }, status: { loadBalancer: { ingress: ips.map((ip) => ({ ip })) } } };
    const timeout = AbortSignal.timeout(this.options.statusTimeoutMs ?? 10_000);
    const write = this.core.patchNamespacedServiceStatus(
      { name: service.name, namespace: service.namespace, body },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await Promise.race([
      write,
      new Promise<never>((_resolve, reject) => timeout.addEventListener('abort', () => reject(new Error(`status write of ${service.namespace}/${service.name} timed out`)), { once: true })),
    ]);
  }

  /** A Service was added, changed or deleted: listeners re-read it (a deleted one reads as undefined). */
  private emitChanged(s: LbService): void {
    for (const l of this.listeners) l.serviceChanged(s.namespace, s.name);
  }

  subscribe(listener: LbClusterViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
