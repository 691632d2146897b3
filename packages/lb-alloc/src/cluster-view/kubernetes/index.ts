// The Kubernetes side of lb-alloc: the only module tree in the package that imports the client.
import { LeaseLeaderElector, type LeaseLeaderElectorOptions, loadKubeConfig } from '@ipamkit/kube-runtime/kubernetes';
import { InformerLbClusterView, type InformerLbClusterViewOptions } from './informer-lb-cluster-view.js';

export { InformerLbClusterView, type InformerLbClusterViewOptions } from './informer-lb-cluster-view.js';
export { projectService, projectNamespace } from './project-service.js';
export { LeaseLeaderElector, type LeaseLeaderElectorOptions };

/** An informer view from a kubeconfig path, or the default chain (in-cluster, `~/.kube/config`). */
export function createInformerLbClusterView(
  kubeconfigPath?: string,
  options: Omit<InformerLbClusterViewOptions, 'kubeConfig'> = {},
): InformerLbClusterView {
  return new InformerLbClusterView({ ...options, kubeConfig: loadKubeConfig(kubeconfigPath) });
}

/** A Lease elector from a kubeconfig path, or the default chain. */
export function createLeaseLeaderElector(kubeconfigPath: string | undefined, options: Omit<LeaseLeaderElectorOptions, 'kubeConfig'>): LeaseLeaderElector {
  return new LeaseLeaderElector({ ...options, kubeConfig: loadKubeConfig(kubeconfigPath) });
}
