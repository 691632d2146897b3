import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig from a path, or the default chain (in-cluster, `~/.kube/config`) when none is given. */
export function loadKubeConfig(kubeconfigPath?: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (kubeconfigPath === undefined || kubeconfigPath === '') kubeConfig.loadFromDefault();
  else kubeConfig.loadFromFile(kubeconfigPath);
  return kubeConfig;
}
