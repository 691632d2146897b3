import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { DatastoreUnavailableError, NotFoundError, UnauthorizedError } from '@ipamkit/models';
import {
  connectionAccess,
  displayServer,
  findKubeconfig,
  type KubeAccess,
  type KubeconfigLoad,
  type KubeConnection,
} from '@ipamkit/ipam-datastore/kubeconfig';
import { NetworkConfigError } from '../errors.js';
import { errCode } from '../runtime/safe-directory.js';

/**
 * Where and how to reach the API server: the shared loader's answer after the network config's
 * overrides. Never logged (it may hold a token or a key).
 */
export type KubeTarget = KubeconfigLoad;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
}

export interface KubeObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReference[];
  deleting: boolean;
}

/** Reads pods, namespaces and KubeVirt objects: all the plugin needs from Kubernetes. */
export interface KubeReader {
  getPod(namespace: string, name: string): Promise<KubeObjectMeta>;
  getNamespace(name: string): Promise<KubeObjectMeta>;
  getVirtualMachineInstance(namespace: string, name: string): Promise<KubeObjectMeta>;
  getVirtualMachine(namespace: string, name: string): Promise<KubeObjectMeta>;
}

export interface KubeOverrides {
  kubeconfig?: string;
  apiRoot?: string;
  token?: string;
  clientCertificate?: string;
  clientKey?: string;
  certificateAuthority?: string;
  /** The in-cluster service account directory (tests); default the standard one. */
  serviceAccountDir?: string;
}

const REQUEST_TIMEOUT_MS = 30_000;

function readOverride(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new NetworkConfigError(`cannot read the ${what} file ${file} (${errCode(err) ?? 'unreadable'})`);
  }
}

/** The `policy.*` overrides on top of a connection (they replace what the kubeconfig said). */
function withOverrides(conn: KubeConnection, o: KubeOverrides): KubeConnection {
  let out = conn;
  if (o.token !== undefined) {
    // An explicit token wins over the kubeconfig's, including a token file that would be re-read.
    const { tokenFile: _dropped, ...rest } = out;
    out = { ...rest, token: o.token };
  }
  if (o.certificateAuthority !== undefined) out = { ...out, ca: readOverride(o.certificateAuthority, 'certificate authority') };
  if (o.clientCertificate !== undefined) out = { ...out, cert: readOverride(o.clientCertificate, 'client certificate') };
  if (o.clientKey !== undefined) out = { ...out, key: readOverride(o.clientKey, 'client key') };
  return out;
}

/**
 * The target Calico's plugin uses (design/cni.md, "Kubernetes access"): the shared kubeconfig
 * loader's default chain (config, $KUBECONFIG, in-cluster, ~/.kube/config), then the `policy.*` /
 * `kubernetes.k8s_api_root` overrides. Undefined when nothing names an API server. A user with an
 * exec or auth-provider section is served by client-node, and the overrides do not apply to it.
 */
export function resolveKubeConnection(o: KubeOverrides, env: Readonly<Record<string, string | undefined>>): KubeTarget | undefined {
  const found = findKubeconfig({ env, ...(o.kubeconfig === undefined ? {} : { path: o.kubeconfig }), ...(o.serviceAccountDir === undefined ? {} : { serviceAccountDir: o.serviceAccountDir }) });
  if (found?.type === 'credential-plugin') return found;
  let conn = found?.connection;
  if (o.apiRoot !== undefined) {
    const cut = o.apiRoot.indexOf('/api/');
    const server = (cut === -1 ? o.apiRoot : o.apiRoot.slice(0, cut)).replace(/\/+$/, '');
    conn = { ...(conn ?? { insecure: false, source: 'the network config' }), server };
  }
  return conn === undefined ? undefined : { type: 'connection', connection: withOverrides(conn, o) };
}

async function accessFor(target: KubeTarget): Promise<KubeAccess> {
  if (target.type === 'connection') return connectionAccess(target.connection);
  // Only for exec / auth-provider users: this loads @kubernetes/client-node.
  const { clientNodeAccessForFile } = await import('@ipamkit/ipam-datastore/kubernetes');
  return clientNodeAccessForFile(target.path, target.mechanism);
}

function stringMap(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null) return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** One GET's status and body: through the small HTTP/1.1 client when the access offers it, else `node:http(s)`. */
async function fetchText(access: KubeAccess, path: string, failed: (err: Error) => Error): Promise<{ status: number; body: string }> {
  const direct = access.direct;
  if (direct !== undefined) {
    try {
      const res = await direct.client.request({ method: 'GET', url: direct.url(path), headers: direct.headers(), timeoutMs: REQUEST_TIMEOUT_MS });
      return { status: res.status, body: res.body.toString('utf8') };
    } catch (err) {
      throw failed(err as Error);
    }
  }
  // Loaded on first use, and only for client-node's access (exec plugins, auth providers).
  const url = new URL(access.server + path);
  const lib = url.protocol === 'http:' ? await import('node:http') : await import('node:https');
  const options: RequestOptions = { method: 'GET', headers: { accept: 'application/json' }, timeout: REQUEST_TIMEOUT_MS };
  await access.prepare(options);
  return new Promise((resolve, reject) => {
    const req = lib.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => reject(failed(err)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => reject(failed(err)));
    req.end();
  });
}

async function getJson(access: KubeAccess, path: string): Promise<unknown> {
  const server = displayServer(access.server);
  // Messages name the server and an error code, never a credential (design/cni.md, "Kubernetes access").
  const failed = (err: Error): DatastoreUnavailableError =>
    new DatastoreUnavailableError(`GET ${path} from ${server}: ${(err as NodeJS.ErrnoException).code ?? err.name}`);
  const { status, body } = await fetchText(access, path, failed);
  if (status === 404) throw new NotFoundError(path);
  if (status === 401 || status === 403) throw new UnauthorizedError(`GET ${path}: the API server ${server} refused the request (HTTP ${status})`);
  if (status < 200 || status > 299) throw new DatastoreUnavailableError(`GET ${path} from ${server}: HTTP ${status}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new DatastoreUnavailableError(`GET ${path} from ${server}: the API server sent invalid JSON`);
  }
}

function ownerRefs(v: unknown): OwnerReference[] {
  if (!Array.isArray(v)) return [];
  return v.map((r: unknown) => {
    const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    const str = (k: string): string => (typeof o[k] === 'string' ? o[k] : '');
    return { apiVersion: str('apiVersion'), kind: str('kind'), name: str('name'), uid: str('uid'), controller: o.controller === true };
  });
}

function metaOf(obj: unknown): KubeObjectMeta {
  const meta = (typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>).metadata : undefined) as Record<string, unknown> | undefined;
  const out: KubeObjectMeta = {
    name: typeof meta?.name === 'string' ? meta.name : '',
    uid: typeof meta?.uid === 'string' ? meta.uid : '',
    labels: stringMap(meta?.labels),
    annotations: stringMap(meta?.annotations),
    ownerReferences: ownerRefs(meta?.ownerReferences),
    deleting: typeof meta?.deletionTimestamp === 'string' && meta.deletionTimestamp !== '',
  };
  if (typeof meta?.namespace === 'string') out.namespace = meta.namespace;
  return out;
}

export function createKubeReader(target: KubeTarget): KubeReader {
  let access: Promise<KubeAccess> | undefined;
  const get = async (path: string): Promise<KubeObjectMeta> => {
    access ??= accessFor(target);
    return metaOf(await getJson(await access, path));
  };
  return {
    getPod: (namespace, name) => get(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`),
    getNamespace: (name) => get(`/api/v1/namespaces/${encodeURIComponent(name)}`),
    getVirtualMachineInstance: (namespace, name) =>
      get(`/apis/kubevirt.io/v1/namespaces/${encodeURIComponent(namespace)}/virtualmachineinstances/${encodeURIComponent(name)}`),
    getVirtualMachine: (namespace, name) => get(`/apis/kubevirt.io/v1/namespaces/${encodeURIComponent(namespace)}/virtualmachines/${encodeURIComponent(name)}`),
  };
}
