// The Kubernetes side of the collector: the only module tree in gc that imports the client.
import { KubeConfig } from '@kubernetes/client-node';
import { InformerClusterView, type InformerClusterViewOptions } from './informer-cluster-view.js';
import { LeaseLeaderElector, type LeaseLeaderElectionOptions } from './lease-leader-election.js';

export { InformerClusterView, type InformerClusterViewOptions } from './informer-cluster-view.js';
export { LeaseLeaderElector, type LeaseLeaderElectionOptions } from './lease-leader-election.js';

/** What the bin needs from Kubernetes, built from a kubeconfig path or the default chain. */
export interface KubernetesRuntime {
  createView(options?: Omit<InformerClusterViewOptions, 'kubeConfig'>): InformerClusterView;
  createElector(options: Omit<LeaseLeaderElectionOptions, 'kubeConfig'>): LeaseLeaderElector;
}

export function kubernetesRuntime(kubeconfigPath?: string): KubernetesRuntime {
  const kubeConfig = new KubeConfig();
  if (kubeconfigPath === undefined || kubeconfigPath === '') kubeConfig.loadFromDefault();
  else kubeConfig.loadFromFile(kubeconfigPath);
  return {
    createView: (options = {}) => new InformerClusterView({ ...options, kubeConfig }),
    createElector: (options) => new LeaseLeaderElector({ ...options, kubeConfig }),
  };
}
