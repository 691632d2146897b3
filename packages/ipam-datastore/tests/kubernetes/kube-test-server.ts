import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { Datastore } from '@ipamkit/models';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { createKubernetesDatastore, type KubernetesApiGroup } from '../../src/kubernetes/index.js';

export const CRD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../manifests/crds');
export const CRD_V3_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../manifests/crds-v3');
export const RBAC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../manifests/rbac');
export const RBAC_V3_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../manifests/rbac-v3');

export interface KubeHarness {
  readonly server: KubeApiServer;
  readonly datastore: Datastore;
  close(): Promise<void>;
}

export function kubeConfigFor(server: KubeApiServer, token = server.token): KubeConfig {
  const kc = new KubeConfig();
  const options = server.kubeconfigOptions();
  kc.loadFromOptions({ ...options, users: options.users.map((u) => ({ ...u, token })) });
  return kc;
}

/** A fresh API test server serving our CRD manifests, and a Kubernetes datastore talking to it. */
export async function startKubeHarness(options: { maxHistory?: number; apiGroup?: KubernetesApiGroup } = {}): Promise<KubeHarness> {
  const v3 = options.apiGroup === 'projectcalico.org/v3';
  const server = await startKubeApiServer({
    crdDirectories: [v3 ? CRD_V3_DIR : CRD_DIR],
    bookmarkIntervalMs: 200,
    initialNamespaces: [],
    ...(options.maxHistory === undefined ? {} : { maxHistory: options.maxHistory }),
  });
  const datastore = await createKubernetesDatastore({ kubeconfig: kubeConfigFor(server), ...(options.apiGroup === undefined ? {} : { apiGroup: options.apiGroup }) });
  return {
    server,
    datastore,
    async close() {
      await datastore.close();
      await server.close();
    },
  };
}
