import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify as toYaml } from 'yaml';
import { JsonSyntaxError, parseLosslessJson, stringifyLosslessJson, type JsonValue } from './lossless-json.js';
import { metadataOf, nowTimestamp, textOf } from './object-meta.js';
import type { ClusterRole } from './cluster-role.js';
import { ObjectStore, type KubeObject } from './object-store.js';
import { RbacAuthorizer } from './rbac-authorizer.js';
import { requestAttributes } from './request-attributes.js';
import { collectionOf, objectKey, ResourceHandlers } from './resource-handlers.js';
import { CORE_RESOURCE_TYPES, loadCrdDirectory, type ResourceType } from './resource-types.js';
import type { FaultInjector } from './fault-injection.js';
import { KubeStatusError, statusErrors } from './status.js';
import { serveWatch } from './watch-stream.js';

export interface KubeApiServerOptions {
  /** Directories of CRD manifests (`*.yaml`) whose custom resources are served and validated. */
  readonly crdDirectories?: readonly string[];
  /** Extra resource types (e.g. built in a test) besides the CRDs and core Nodes/Namespaces/Pods/Services. */
  readonly resourceTypes?: readonly ResourceType[];
  /** Events kept for watches and `continue`; older resourceVersions get 410 Gone. Default 1000. */
  readonly maxHistory?: number;
  /** How often a watch with `allowWatchBookmarks` gets a BOOKMARK. Default 1000 ms. */
  readonly bookmarkIntervalMs?: number;
  /** Namespaces that exist from the start, as in a real cluster. Default `default` and `kube-system`. */
  readonly initialNamespaces?: readonly string[];
  /** Bearer token every request must carry. Default: a random one (in `kubeconfigOptions()`). */
  readonly token?: string;
  /**
   * The ClusterRole bound to the user of `token`: each of its requests is authorized against the
   * rules and answered 403 Forbidden when none allows it (design/test-utils.md, "The RBAC
   * authorizer"). Requests carrying `adminToken` are never checked. Default: no authorization.
   */
  readonly clusterRole?: ClusterRole;
  /** The user 403 messages name. Default `system:serviceaccount:kube-system:ipamkit`. */
  readonly userName?: string;
  /** Random 409/500/410 answers (design/test-utils.md, "Fault injection"); off when absent. */
  readonly faults?: FaultInjector;
}

/** Which credentials a kubeconfig carries: the (possibly role-bound) user's, or the unchecked admin's. */
export interface KubeconfigIdentity {
  readonly admin?: boolean;
}

/** A canned failure for the next matching requests (retry and error-mapping tests). */
export interface InjectedFailure {
  readonly status: number;
  readonly method?: string;
  readonly pathIncludes?: string;
  /** How many requests fail; default 1. */
  readonly times?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  /** The decoded request body, when there was one. */
  body?: JsonValue;
}

export interface RawObjectRef {
  /** `''` for core. */
  readonly group: string;
  readonly plural: string;
  readonly name: string;
  readonly namespace?: string;
}

/** The shape `KubeConfig.loadFromOptions` accepts. */
export interface KubeconfigOptions {
  clusters: { name: string; server: string; skipTLSVerify: boolean }[];
  users: { name: string; token: string }[];
  contexts: { name: string; cluster: string; user: string }[];
  currentContext: string;
}

export interface KubeApiServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** A second token whose requests are never authorized: test set-up and inspection under a role. */
  readonly adminToken: string;
  /** The authorizer of `clusterRole`, when one was given: what was used, what was denied. */
  readonly authorizer: RbacAuthorizer | undefined;
  kubeconfigOptions(identity?: KubeconfigIdentity): KubeconfigOptions;
  kubeconfigYaml(identity?: KubeconfigIdentity): string;
  /** Writes the kubeconfig YAML to `file` (mode 0600) and returns the path. */
  writeKubeconfig(file: string, identity?: KubeconfigIdentity): string;
  /** Stores `object` as-is (no validation, no pruning) with fresh rv/uid unless given; watchers see it. */
  inject(object: Record<string, unknown>): KubeObject;
  /** The stored object exactly as the server holds it, or undefined. */
  readRaw(ref: RawObjectRef): KubeObject | undefined;
  /** Requests seen so far (newest last, at most 1000). */
  readonly requests: readonly RecordedRequest[];
  failNext(failure: InjectedFailure): void;
  /** Forgets the event history, as an etcd compaction: older resourceVersions now get 410. */
  compact(): void;
  readonly currentResourceVersion: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = stringifyLosslessJson(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/**
 * Starts the Kubernetes API test server on 127.0.0.1, port chosen by the OS. It serves the CRDs
 * found in `crdDirectories` plus core Nodes, Namespaces (`initialNamespaces` pre-created), Pods
 * and Services.
 */
export async function startKubeApiServer(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
  const types = [...CORE_RESOURCE_TYPES, ...(options.crdDirectories ?? []).flatMap((d) => loadCrdDirectory(d)), ...(options.resourceTypes ?? [])];
  const store = new ObjectStore(options.maxHistory ?? 1000);
  const handlers = new ResourceHandlers(store);
  const token = options.token ?? randomUUID();
  const adminToken = randomUUID();
  const authorizer = options.clusterRole === undefined ? undefined : new RbacAuthorizer(options.clusterRole);
  const userName = options.userName ?? 'system:serviceaccount:kube-system:ipamkit';
  const requests: RecordedRequest[] = [];
  const failures: { failure: InjectedFailure; left: number }[] = [];
  const watchStops = new Set<() => void>();
  const namespaceType = types.find((t) => t.plural === 'namespaces' && t.group === '');
  if (namespaceType !== undefined) {
    for (const ns of options.initialNamespaces ?? ['default', 'kube-system']) handlers.create(namespaceType, undefined, { metadata: { name: ns } });
  }

  const route = (pathname: string): Route | undefined => {
    const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
    let group: string;
    let rest: string[];
    if (parts[0] === 'api' && parts[1] === 'v1') {
      group = '';
      rest = parts.slice(2);
    } else if (parts[0] === 'apis' && parts.length >= 4) {
      group = parts[1] ?? '';
      rest = parts.slice(3);
    } else return undefined;
    const version = group === '' ? 'v1' : (parts[2] ?? '');
    let namespace: string | undefined;
    // `/namespaces/<ns>/<plural>` addresses a namespaced collection; `/namespaces[/<ns>]` the namespaces.
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const [plural, name, subresource] = rest;
    const type = types.find((t) => t.group === group && t.version === version && t.plural === plural);
    if (type === undefined || rest.length > 3) return undefined;
    if (type.namespaced !== (namespace !== undefined) && !(type.namespaced && name === undefined)) return undefined;
    return { type, ...(namespace === undefined ? {} : { namespace }), ...(name === undefined ? {} : { name }), ...(subresource === undefined ? {} : { subresource }) };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const record: RecordedRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
    requests.push(record);
    if (requests.length > 1000) requests.shift();
    const admin = req.headers.authorization === `Bearer ${adminToken}`;
    if (!admin && req.headers.authorization !== `Bearer ${token}`) throw statusErrors.unauthorized();
    if (!admin && authorizer !== undefined) {
      // Authorization comes before the handler, as in the API server: a denied request gets 403 even for an unserved path.
      const attributes = requestAttributes(method, url.pathname, url.searchParams);
      if (!authorizer.authorize(attributes, method, url.pathname)) throw statusErrors.forbidden(userName, attributes);
    }
    const fault = options.faults?.decide({ method, watching: ['true', '1'].includes(url.searchParams.get('watch') ?? '') });
    if (fault !== undefined) throw fault;
    const failure = failures.find((f) => (f.failure.method ?? method) === method && url.pathname.includes(f.failure.pathIncludes ?? ''));
    if (failure !== undefined) {
      failure.left -= 1;
      if (failure.left <= 0) failures.splice(failures.indexOf(failure), 1);
      const reason = failure.failure.status === 429 ? 'TooManyRequests' : failure.failure.status >= 500 ? 'InternalError' : 'Forbidden';
      throw new KubeStatusError(failure.failure.status, reason, `injected failure ${failure.failure.status}`);
    }
    const r = route(url.pathname);
    if (r === undefined || (r.subresource !== undefined && (r.subresource !== 'status' || !r.type.statusSubresource))) {
      throw statusErrors.pathNotFound();
    }
    const text = method === 'GET' ? '' : await readBody(req);
    let body: JsonValue | undefined;
    try {
      body = text.trim() === '' ? undefined : parseLosslessJson(text);
      if (body !== undefined) record.body = body;
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw statusErrors.badRequest(`the body of the request could not be decoded: ${err.message}`);
      throw err;
    }
    const { type, namespace, name, subresource } = r;
    const watching = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    if (method === 'GET' && name === undefined && watching) {
      serveWatch(res, store, type, namespace, url.searchParams, { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 1000 }, (stop) => {
        watchStops.add(stop);
        res.on('close', () => watchStops.delete(stop));
      });
      return;
    }
    if (name === undefined) {
      if (method === 'GET') return sendJson(res, 200, handlers.list(type, namespace, url.searchParams));
      if (method === 'POST') return sendJson(res, 201, handlers.create(type, namespace, body ?? null));
      throw statusErrors.methodNotAllowed(`${method} is not supported on a collection`);
    }
    switch (method) {
      case 'GET':
        return sendJson(res, 200, handlers.get(type, namespace, name));
      case 'PUT':
        return sendJson(res, 200, handlers.replace(type, namespace, name, body ?? null, subresource));
      case 'PATCH':
        return sendJson(res, 200, handlers.patch(type, namespace, name, req.headers['content-type'] ?? '', body ?? null, subresource));
      case 'DELETE':
        return sendJson(res, 200, handlers.delete(type, namespace, name, body));
      default:
        throw statusErrors.methodNotAllowed(`${method} is not supported`);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof KubeStatusError ? err : new KubeStatusError(500, 'InternalError', String(err));
      if (!res.headersSent) sendJson(res, status.code, status.toStatus());
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const tokenOf = (identity: KubeconfigIdentity = {}): string => (identity.admin === true ? adminToken : token);
  const kubeconfigOptions = (identity?: KubeconfigIdentity): KubeconfigOptions => ({
    clusters: [{ name: 'ipamkit-test', server: url, skipTLSVerify: true }],
    users: [{ name: 'ipamkit-test', token: tokenOf(identity) }],
    contexts: [{ name: 'ipamkit-test', cluster: 'ipamkit-test', user: 'ipamkit-test' }],
    currentContext: 'ipamkit-test',
  });
  const kubeconfigYaml = (identity?: KubeconfigIdentity): string =>
    toYaml({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'ipamkit-test', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'ipamkit-test', user: { token: tokenOf(identity) } }],
      contexts: [{ name: 'ipamkit-test', context: { cluster: 'ipamkit-test', user: 'ipamkit-test' } }],
      'current-context': 'ipamkit-test',
    });

  const findType = (group: string, plural: string): ResourceType => {
    const type = types.find((t) => t.group === group && t.plural === plural);
    if (type === undefined) throw new Error(`the test server does not serve ${plural}.${group}`);
    return type;
  };

  return {
    url,
    port,
    token,
    adminToken,
    authorizer,
    kubeconfigOptions,
    kubeconfigYaml,
    writeKubeconfig(file, identity) {
      writeFileSync(file, kubeconfigYaml(identity), { mode: 0o600 });
      return file;
    },
    inject(object) {
      const obj = parseLosslessJson(stringifyLosslessJson(object)) as KubeObject;
      const apiVersion = textOf(obj['apiVersion']);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = textOf(obj['kind']);
      const type = types.find((t) => t.group === group && t.kind === kind);
      if (type === undefined) throw new Error(`the test server does not serve ${kind} in ${apiVersion}`);
      const meta = metadataOf(obj);
      const name = textOf(meta['name']);
      const namespace = typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined;
      const key = objectKey(type, namespace, name);
      const previous = store.get(key);
      const rv = store.nextRevision();
      const stored: KubeObject = {
        ...obj,
        metadata: { uid: randomUUID(), creationTimestamp: nowTimestamp(), generation: 1, ...meta, resourceVersion: rv.toString() },
      };
      store.commit({ rv, type: previous === undefined ? 'ADDED' : 'MODIFIED', collection: collectionOf(type), key, object: stored, ...(previous === undefined ? {} : { previous }) });
      return stored;
    },
    readRaw(ref) {
      const stored = store.get(objectKey(findType(ref.group, ref.plural), ref.namespace, ref.name));
      return stored === undefined ? undefined : structuredClone(stored);
    },
    requests,
    failNext(failure) {
      failures.push({ failure, left: failure.times ?? 1 });
    },
    compact() {
      store.compact();
    },
    get currentResourceVersion() {
      return store.currentRevision.toString();
    },
    async close() {
      for (const stop of [...watchStops]) stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
