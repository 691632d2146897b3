import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** Writes a token kubeconfig for the test server into a fresh directory; `cleanup` removes it. */
export function kubeconfigFileFor(server: KubeApiServer, token = server.token): { path: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kubeconfig-'));
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(file, server.kubeconfigYaml().replace(server.token, token), { mode: 0o600 });
  return { path: file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A client-node KubeConfig for the test server (the datastore recognises it by shape). */
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
  // Through a kubeconfig file: the small loader and node:https, as a plugin call reads it.
  const kubeconfig = kubeconfigFileFor(server);
  const datastore = await createKubernetesDatastore({ kubeconfig: kubeconfig.path, ...(options.apiGroup === undefined ? {} : { apiGroup: options.apiGroup }) });
  return {
    server,
    datastore,
    async close() {
      await datastore.close();
      await server.close();
      kubeconfig.cleanup();
    },
  };
}
