import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { displayServer, KubeconfigError, type KubeAccess } from '../kubeconfig/index.js';

/** What we use of a client-node `KubeConfig`; matched structurally, so client-node is never imported to check. */
export type ClientNodeKubeConfig = Pick<KubeConfig, 'getCurrentCluster' | 'applyToHTTPSOptions'>;

export function isClientNodeKubeConfig(v: unknown): v is ClientNodeKubeConfig {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o['getCurrentCluster'] === 'function' && typeof o['applyToHTTPSOptions'] === 'function';
}

/**
 * Access through client-node's `applyToHTTPSOptions`: for a KubeConfig the caller loaded, and for
 * users the small loader does not cover (exec credential plugins, auth providers). `what` names
 * the source in messages; client-node's own errors are not passed on, as they can quote the file
 * or a plugin's output.
 */
export function clientNodeAccess(kc: ClientNodeKubeConfig, what: string): KubeAccess {
  const cluster = kc.getCurrentCluster();
  if (cluster === null) throw new KubeconfigError(`${what} has no current cluster`);
  return {
    server: cluster.server.replace(/\/+$/, ''),
    async prepare(options: RequestOptions) {
      try {
        await kc.applyToHTTPSOptions(options);
      } catch (err) {
        const kind = err instanceof Error ? err.name : 'error';
        throw new KubeconfigError(`${what}: the credentials for ${displayServer(cluster.server)} could not be obtained (${kind})`);
      }
    },
    close() {
      // client-node builds a fresh agent per request; nothing is pooled here.
    },
  };
}

/**
 * Loads `@kubernetes/client-node` (only now: it costs hundreds of milliseconds) and reads `path`
 * with it, for a user with an `exec` or `auth-provider` section.
 */
export async function clientNodeAccessForFile(path: string, mechanism: 'exec' | 'auth-provider'): Promise<KubeAccess> {
  const { KubeConfig: ClientNodeKubeConfigClass } = await import('@kubernetes/client-node');
  const kc = new ClientNodeKubeConfigClass();
  try {
    kc.loadFromFile(path);
  } catch {
    throw new KubeconfigError(`kubeconfig ${path}: cannot be loaded for its ${mechanism} user`);
  }
  return clientNodeAccess(kc, `kubeconfig ${path} (${mechanism} user)`);
}
