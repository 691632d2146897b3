import type { KubeConfig } from '@kubernetes/client-node';
import { connectionAccess, loadKubeconfig, type KubeAccess, type KubeconfigSources } from '../kubeconfig/index.js';
import { clientNodeAccess, clientNodeAccessForFile, isClientNodeKubeConfig } from './client-node-access.js';

/**
 * The access a Kubernetes datastore uses: a client-node `KubeConfig` the caller loaded, or the
 * small loader's reading of a path or of the default chain, falling back to client-node (loaded
 * lazily) only for exec and auth-provider users (design/ipam-datastore.md, "Kubernetes backend:
 * kubeconfig loading").
 */
export async function kubeAccessFor(source: string | KubeConfig | undefined, sources: Omit<KubeconfigSources, 'path'> = {}): Promise<KubeAccess> {
  if (isClientNodeKubeConfig(source)) return clientNodeAccess(source, 'the given KubeConfig');
  const loaded = loadKubeconfig({ ...sources, ...(typeof source === 'string' ? { path: source } : {}) });
  if (loaded.type === 'connection') return connectionAccess(loaded.connection);
  return clientNodeAccessForFile(loaded.path, loaded.mechanism);
}
