// The Kubernetes side of the collector: the only module tree in gc that imports the client.
import { LeaseLeaderElector, type LeaseLeaderElectorOptions, loadKubeConfig } from '@ipamkit/kube-runtime/kubernetes';
import { InformerClusterView, type InformerClusterViewOptions } from './informer-cluster-view.js';

export { InformerClusterView, type InformerClusterViewOptions } from './informer-cluster-view.js';
export { LeaseLeaderElector, type LeaseLeaderElectorOptions } from '@ipamkit/kube-runtime/kubernetes';
/** The options' former name in this package (its `now` is now epoch milliseconds, as kube-runtime's). */
export type { LeaseLeaderElectorOptions as LeaseLeaderElectionOptions } from '@ipamkit/kube-runtime/kubernetes';

/** What the bin needs from Kubernetes, built from a kubeconfig path or the default chain. */
export interface KubernetesRuntime {
  createView(options?: Omit<InformerClusterViewOptions, 'kubeConfig'>): InformerClusterView;
  createElector(options: Omit<LeaseLeaderElectorOptions, 'kubeConfig'>): LeaseLeaderElector;
}

export function kubernetesRuntime(kubeconfigPath?: string): KubernetesRuntime {
  const kubeConfig = loadKubeConfig(kubeconfigPath);
  return {
    createView: (options = {}) => new InformerClusterView({ ...options, kubeConfig }),
    createElector: (options) => new LeaseLeaderElector({ ...options, kubeConfig }),
  };
}
