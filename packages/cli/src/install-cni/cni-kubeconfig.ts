import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CliUsageError } from '../errors.js';

/** The in-cluster service account: the token and the CA that signs the API server's certificate. */
export interface ServiceAccountFiles {
  readonly token: string;
  readonly caCert: Buffer;
}

export async function readServiceAccount(dir: string): Promise<ServiceAccountFiles | undefined> {
  let token: string;
  try {
    token = (await readFile(join(dir, 'token'), 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (token === '') throw new CliUsageError(`the service account token in ${dir} is empty`);
  const caCert = await readFile(join(dir, 'ca.crt'));
  return { token, caCert };
}

/** `https://host:port` from KUBERNETES_SERVICE_HOST/PORT, with an IPv6 host in brackets. */
export function apiServerUrl(env: NodeJS.ProcessEnv): string {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  if (host === undefined || host === '') throw new CliUsageError('KUBERNETES_SERVICE_HOST is not set: it names the API server the CNI kubeconfig points at');
  if (!/^\d{1,5}$/.test(port)) throw new CliUsageError(`KUBERNETES_SERVICE_PORT ${JSON.stringify(port)} is not a port number`);
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The kubeconfig the plugin uses on this node (design/cli.md, "install-cni"): the service
 * account's token and CA inline, so the file alone is enough. It holds a secret: written 0600.
 */
export function cniKubeconfig(server: string, account: ServiceAccountFiles): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: { server, 'certificate-authority-data': account.caCert.toString('base64') } }],
    users: [{ name: 'calico-ipam', user: { token: account.token } }],
    contexts: [{ name: 'calico-ipam-context', context: { cluster: 'local', user: 'calico-ipam' } }],
    'current-context': 'calico-ipam-context',
  });
}
