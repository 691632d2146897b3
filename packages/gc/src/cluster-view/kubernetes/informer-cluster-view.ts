import { ApiException, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { KUBEVIRT_POLL_MS } from '../../constants.js';
import type { ClusterNode, ClusterView, ClusterViewListener, KubeVirtView, PodProjection, ServiceView, VmiProjection } from '../cluster-view.js';
import { projectKey, projectNode, projectPod, projectVmi } from './projections.js';
import { Reflector } from '@ipamkit/kube-runtime/kubernetes';

export interface InformerClusterViewOptions {
  readonly kubeConfig: KubeConfig;
  /** Watch Services for the LoadBalancer rule (default true). */
  readonly watchServices?: boolean;
  /** Look for KubeVirt and watch its VMs and VMIs once found (default true). */
  readonly watchKubeVirt?: boolean;
  readonly kubevirtPollMs?: number;
  readonly onError?: (what: string, err: unknown) => void;
}

const PAGE = 500;
const nsKey = (namespace: string, name: string): string => `${namespace}/${name}`;
const isNotFound = (err: unknown): boolean => err instanceof ApiException && err.code === 404;

/**
 * The cluster view over the Kubernetes API (the one place in gc that imports the client): nodes,
 * pods, Services and, when installed, KubeVirt VMs and VMIs, each kept as projections by a
 * list-then-watch reflector that restarts with backoff.
 */
export class InformerClusterView implements ClusterView {
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly listeners = new Set<ClusterViewListener>();
  private readonly nodes: Reflector<ClusterNode>;
  private readonly pods: Reflector<PodProjection>;
  private readonly serviceReflector: Reflector<{ namespace: string; name: string }> | undefined;
  private vms: Reflector<{ namespace: string; name: string }> | undefined;
  private vmis: Reflector<VmiProjection> | undefined;
  private kubevirtReady = false;
  private kubevirtTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: InformerClusterViewOptions) {
    const kc = options.kubeConfig;
    this.core = kc.makeApiClient(CoreV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
    const onError = (what: string) => (err: unknown) => options.onError?.(what, err);
    this.nodes = new Reflector({
      kc,
      path: '/api/v1/nodes',
      list: (cont) => this.core.listNode({ limit: PAGE, ...(cont === undefined ? {} : { _continue: cont }) }),
      project: projectNode,
      key: (n) => n.name,
      onDelete: (n) => this.emit((l) => l.nodeDeleted?.(n.name)),
      onError: onError('nodes'),
    });
    this.pods = new Reflector({
      kc,
      path: '/api/v1/pods',
      list: (cont) => this.core.listPodForAllNamespaces({ limit: PAGE, ...(cont === undefined ? {} : { _continue: cont }) }),
      project: (obj) => projectPod(obj, { live: false }),
      key: (p) => nsKey(p.namespace, p.name),
      onDelete: (p) => this.emit((l) => l.podDeleted?.(p)),
      onError: onError('pods'),
    });
    if (options.watchServices !== false) {
      this.serviceReflector = new Reflector({
        kc,
        path: '/api/v1/services',
        list: (cont) => this.core.listServiceForAllNamespaces({ limit: PAGE, ...(cont === undefined ? {} : { _continue: cont }) }),
        project: projectKey,
        key: (s) => nsKey(s.namespace, s.name),
        onDelete: (s) => this.emit((l) => l.serviceDeleted?.(s.namespace, s.name)),
        onError: onError('services'),
      });
    }
  }

  /** Starts every reflector and resolves once nodes, pods and Services are listed. */
  async start(): Promise<void> {
    this.nodes.start();
    this.pods.start();
    this.serviceReflector?.start();
    if (this.options.watchKubeVirt !== false) void this.probeKubeVirt();
    await Promise.all([this.nodes.synced, this.pods.synced, this.serviceReflector?.synced]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.kubevirtTimer !== undefined) clearTimeout(this.kubevirtTimer);
    await Promise.all([this.nodes.stop(), this.pods.stop(), this.serviceReflector?.stop(), this.vms?.stop(), this.vmis?.stop()]);
  }

  get kubevirt(): KubeVirtView | undefined {
    const vms = this.vms;
    const vmis = this.vmis;
    if (!this.kubevirtReady || vms === undefined || vmis === undefined) return undefined;
    return {
      hasVirtualMachine: (namespace, name) => vms.items.has(nsKey(namespace, name)),
      getVirtualMachineInstance: (namespace, name) => vmis.items.get(nsKey(namespace, name)),
    };
  }

  get services(): ServiceView | undefined {
    const services = this.serviceReflector;
    return services === undefined ? undefined : { hasService: (namespace, name) => services.items.has(nsKey(namespace, name)) };
  }

  getNode(name: string): ClusterNode | undefined {
    return this.nodes.items.get(name);
  }

  nodeNames(): Iterable<string> {
    return this.nodes.items.keys();
  }

  getPod(namespace: string, name: string): PodProjection | undefined {
    return this.pods.items.get(nsKey(namespace, name));
  }

  async readPod(namespace: string, name: string): Promise<PodProjection | undefined> {
    try {
      return projectPod(await this.core.readNamespacedPod({ namespace, name }), { live: true });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  subscribe(listener: ClusterViewListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(call: (l: ClusterViewListener) => void): void {
    for (const l of this.listeners) call(l);
  }

  /** KubeVirt may be installed later: poll for its API, then watch VMs and VMIs (design/calico-callers.md#gc-inputs). */
  private async probeKubeVirt(): Promise<void> {
    if (this.stopped) return;
    const kc = this.options.kubeConfig;
    const list = (plural: string) => (cont: string | undefined) =>
      this.custom.listClusterCustomObject({ group: 'kubevirt.io', version: 'v1', plural, limit: PAGE, ...(cont === undefined ? {} : { _continue: cont }) });
    try {
      await list('virtualmachineinstances')(undefined);
    } catch (err) {
      if (!isNotFound(err)) this.options.onError?.('kubevirt probe', err);
      this.kubevirtTimer = setTimeout(() => void this.probeKubeVirt(), this.options.kubevirtPollMs ?? KUBEVIRT_POLL_MS);
      this.kubevirtTimer.unref();
      return;
    }
    this.vms = new Reflector({ kc, path: '/apis/kubevirt.io/v1/virtualmachines', list: list('virtualmachines'), project: projectKey, key: (v) => nsKey(v.namespace, v.name) });
    this.vmis = new Reflector({ kc, path: '/apis/kubevirt.io/v1/virtualmachineinstances', list: list('virtualmachineinstances'), project: projectVmi, key: (v) => nsKey(v.namespace, v.name) });
    this.vms.start();
    this.vmis.start();
    await Promise.all([this.vms.synced, this.vmis.synced]);
    this.kubevirtReady = true;
  }
}
