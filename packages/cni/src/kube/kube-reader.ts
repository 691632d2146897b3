import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { DatastoreUnavailableError, NotFoundError } from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';
import { parseMiniYaml, type YamlValue } from './mini-yaml.js';

/** Where and how to reach the API server; never logged (it may hold a token or a key). */
export interface KubeConnection {
  server: string;
  token?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  insecure: boolean;
}

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
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';
const REQUEST_TIMEOUT_MS = 30_000;

function field(v: YamlValue | undefined, key: string): YamlValue | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v[key] : undefined;
}

function text(v: YamlValue | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function named(list: YamlValue | undefined, name: string, key: string): YamlValue | undefined {
  if (!Array.isArray(list)) return undefined;
  return field(list.find((e) => field(e, 'name') === name), key);
}

function material(section: YamlValue | undefined, key: string, base: string): Buffer | undefined {
  const data = text(field(section, `${key}-data`));
  if (data !== undefined) return Buffer.from(data, 'base64');
  const file = text(field(section, key));
  return file === undefined ? undefined : readFileSync(isAbsolute(file) ? file : resolve(base, file));
}

/** The current context of a kubeconfig file. */
export function connectionFromKubeconfig(path: string): KubeConnection {
  let doc: YamlValue;
  try {
    doc = parseMiniYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err instanceof NetworkConfigError) throw err;
    throw new NetworkConfigError(`cannot read kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const contextName = text(field(doc, 'current-context')) ?? '';
  const context = named(field(doc, 'contexts'), contextName, 'context');
  const cluster = named(field(doc, 'clusters'), text(field(context, 'cluster')) ?? '', 'cluster');
  const user = named(field(doc, 'users'), text(field(context, 'user')) ?? '', 'user');
  const server = text(field(cluster, 'server'));
  if (server === undefined) throw new NetworkConfigError(`kubeconfig ${path} has no server for its current context`);
  const base = dirname(path);
  const tokenFile = text(field(user, 'tokenFile'));
  const token = text(field(user, 'token')) ?? (tokenFile === undefined ? undefined : readFileSync(resolve(base, tokenFile), 'utf8').trim());
  const conn: KubeConnection = { server, insecure: field(cluster, 'insecure-skip-tls-verify') === true };
  if (token !== undefined) conn.token = token;
  const ca = material(cluster, 'certificate-authority', base);
  if (ca !== undefined) conn.ca = ca;
  const cert = material(user, 'client-certificate', base);
  if (cert !== undefined) conn.cert = cert;
  const key = material(user, 'client-key', base);
  if (key !== undefined) conn.key = key;
  return conn;
}

/**
 * The connection Calico's plugin builds (spec/cni.md §8): the kubeconfig (config, $KUBECONFIG,
 * in-cluster, ~/.kube/config), then the `policy.*` / `kubernetes.k8s_api_root` overrides.
 * Undefined when nothing names an API server.
 */
export function resolveKubeConnection(o: KubeOverrides, env: Readonly<Record<string, string | undefined>>): KubeConnection | undefined {
  let conn: KubeConnection | undefined;
  const file = o.kubeconfig ?? (env.KUBECONFIG !== undefined && env.KUBECONFIG !== '' ? env.KUBECONFIG : undefined);
  if (file !== undefined) conn = connectionFromKubeconfig(file);
  else if ((env.KUBERNETES_SERVICE_HOST ?? '') !== '' && existsSync(`${SERVICE_ACCOUNT}/token`)) {
    conn = {
      server: `https://${env.KUBERNETES_SERVICE_HOST ?? ''}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`,
      token: readFileSync(`${SERVICE_ACCOUNT}/token`, 'utf8').trim(),
      ca: readFileSync(`${SERVICE_ACCOUNT}/ca.crt`),
      insecure: false,
    };
  } else if (existsSync(resolve(homedir(), '.kube/config'))) conn = connectionFromKubeconfig(resolve(homedir(), '.kube/config'));
  if (o.apiRoot !== undefined) {
    const cut = o.apiRoot.indexOf('/api/');
    conn = { ...(conn ?? { insecure: false }), server: cut === -1 ? o.apiRoot : o.apiRoot.slice(0, cut) };
  }
  if (conn === undefined) return undefined;
  if (o.token !== undefined) conn.token = o.token;
  if (o.certificateAuthority !== undefined) conn.ca = readFileSync(o.certificateAuthority);
  if (o.clientCertificate !== undefined) conn.cert = readFileSync(o.clientCertificate);
  if (o.clientKey !== undefined) conn.key = readFileSync(o.clientKey);
  return conn;
}

function stringMap(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null) return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

async function getJson(conn: KubeConnection, path: string): Promise<unknown> {
  // Loaded on first use: most invocations never talk to Kubernetes, and TLS costs start-up time.
  const [{ default: http }, { default: https }] = await Promise.all([import('node:http'), import('node:https')]);
  const url = new URL(conn.server.replace(/\/$/, '') + path);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (conn.token !== undefined) headers.authorization = `Bearer ${conn.token}`;
  const lib = url.protocol === 'http:' ? http : https;
  const tls = url.protocol === 'http:' ? {} : { rejectUnauthorized: !conn.insecure, ...(conn.ca ? { ca: conn.ca } : {}), ...(conn.cert ? { cert: conn.cert } : {}), ...(conn.key ? { key: conn.key } : {}) };
  return new Promise((resolveBody, reject) => {
    const req = lib.request(url, { method: 'GET', headers, timeout: REQUEST_TIMEOUT_MS, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => reject(new DatastoreUnavailableError(`reading ${path}: ${err.message}`)));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8');
        if (status === 404) return reject(new NotFoundError(path));
        if (status < 200 || status > 299) return reject(new DatastoreUnavailableError(`GET ${path}: HTTP ${status}`));
        try {
          resolveBody(JSON.parse(body));
        } catch {
          reject(new DatastoreUnavailableError(`GET ${path}: the API server sent invalid JSON`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => reject(new DatastoreUnavailableError(`GET ${path}: ${err.message}`)));
    req.end();
  });
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

export function createKubeReader(conn: KubeConnection): KubeReader {
  return {
    getPod: async (namespace, name) => metaOf(await getJson(conn, `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`)),
    getNamespace: async (name) => metaOf(await getJson(conn, `/api/v1/namespaces/${encodeURIComponent(name)}`)),
    getVirtualMachineInstance: async (namespace, name) =>
      metaOf(await getJson(conn, `/apis/kubevirt.io/v1/namespaces/${encodeURIComponent(namespace)}/virtualmachineinstances/${encodeURIComponent(name)}`)),
    getVirtualMachine: async (namespace, name) =>
      metaOf(await getJson(conn, `/apis/kubevirt.io/v1/namespaces/${encodeURIComponent(namespace)}/virtualmachines/${encodeURIComponent(name)}`)),
  };
}
