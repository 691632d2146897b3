// The Kubernetes side of lb-alloc: the only module tree in the package that imports the client.
import { KubeConfig } from '@kubernetes/client-node';
import { InformerLbClusterView, type InformerLbClusterViewOptions } from './informer-lb-cluster-view.js';
import { LeaseLeaderElector, type LeaseLeaderElectorOptions } from './lease-leader-elector.js';

export { InformerLbClusterView, type InformerLbClusterViewOptions } from './informer-lb-cluster-view.js';
export { projectService, projectNamespace } from './project-service.js';

/** An informer view from a kubeconfig path, or the default chain (in-cluster, `~/.kube/config`). */
export function createInformerLbClusterView(
  kubeconfigPath?: string,
  options: Omit<InformerLbClusterViewOptions, 'kubeConfig'> = {},
): InformerLbClusterView {
  const kubeConfig = new KubeConfig();
  if (kubeconfigPath === undefined || kubeconfigPath === '') kubeConfig.loadFromDefault();
  else kubeConfig.loadFromFile(kubeconfigPath);
  return new InformerLbClusterView({ ...options, kubeConfig });
}

export { LeaseLeaderElector, type LeaseLeaderElectorOptions };

/** A Lease elector from a kubeconfig path, or the default chain. */
export function createLeaseLeaderElector(kubeconfigPath: string | undefined, options: Omit<LeaseLeaderElectorOptions, 'kubeConfig'>): LeaseLeaderElector {
  const kubeConfig = new KubeConfig();
  if (kubeconfigPath === undefined || kubeconfigPath === '') kubeConfig.loadFromDefault();
  else kubeConfig.loadFromFile(kubeconfigPath);
  return new LeaseLeaderElector({ ...options, kubeConfig });
}
