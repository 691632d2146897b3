import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { KubeconfigLoad, KubeConnection } from './kube-connection.js';
import { fileErrorCode, KubeconfigError } from './kubeconfig-error.js';
import { readKubeconfigFile } from './read-kubeconfig-file.js';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface KubeconfigSources {
  /** An explicit kubeconfig path: used alone when given. */
  readonly path?: string;
  /** Where `KUBECONFIG`, `KUBERNETES_SERVICE_HOST` and `_PORT` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The service account directory of the in-cluster chain step. Default {@link SERVICE_ACCOUNT_DIR}. */
  readonly serviceAccountDir?: string;
  /** Where `.kube/config` is looked for. Default the user's home directory. */
  readonly homeDir?: string;
}

/** The pod's service account, when the process runs in a pod (both variables set, token present). */
export function inClusterConnection(env: Readonly<Record<string, string | undefined>>, dir = SERVICE_ACCOUNT_DIR): KubeConnection | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'] ?? '';
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '';
  const tokenFile = join(dir, 'token');
  if (host === '' || port === '' || !existsSync(tokenFile)) return undefined;
  const source = `the in-cluster service account (${dir})`;
  const read = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new KubeconfigError(`${source}: cannot read ${file} (${fileErrorCode(err)})`);
    }
  };
  const caFile = join(dir, 'ca.crt');
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    token: read(tokenFile).toString('utf8').trim(),
    tokenFile,
    insecure: false,
    source,
    ...(existsSync(caFile) ? { ca: read(caFile) } : {}),
  };
}

/**
 * The default chain (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading"): the
 * explicit path, else the first entry of `$KUBECONFIG` (we do not merge a list), else the
 * in-cluster service account, else `~/.kube/config`. Undefined when none of them exists.
 */
export function findKubeconfig(sources: KubeconfigSources = {}): KubeconfigLoad | undefined {
  if (sources.path !== undefined && sources.path !== '') return readKubeconfigFile(sources.path);
  const env = sources.env ?? process.env;
  const listed = (env['KUBECONFIG'] ?? '').split(delimiter).find((p) => p !== '');
  if (listed !== undefined) return readKubeconfigFile(listed);
  const inCluster = inClusterConnection(env, sources.serviceAccountDir);
  if (inCluster !== undefined) return { type: 'connection', connection: inCluster };
  // `HOME` first, as os.homedir() itself does: spares a short-lived process loading node:os.
  const home = join(sources.homeDir ?? process.env['HOME'] ?? homedir(), '.kube', 'config');
  return existsSync(home) ? readKubeconfigFile(home) : undefined;
}

/** {@link findKubeconfig}, failing with a clear error when nothing names an API server. */
export function loadKubeconfig(sources: KubeconfigSources = {}): KubeconfigLoad {
  const found = findKubeconfig(sources);
  if (found === undefined) {
    throw new KubeconfigError('no kubeconfig found: pass a path, set KUBECONFIG, run in a pod, or create ~/.kube/config');
  }
  return found;
}
