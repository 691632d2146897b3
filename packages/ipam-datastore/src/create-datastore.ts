import { definedFields, type Datastore } from '@ipamkit/models';
import type { DatastoreOverrides, OverrideNames } from './config/datastore-overrides.js';
import { resolveDatastoreConfig } from './config/resolve-datastore-config.js';
import { DatastoreConfigError } from './errors.js';

/** Transport security for etcd: PEM file paths (read when the datastore opens, never logged). */
export interface EtcdTlsConfig {
  /** CA bundle that signs the etcd servers' certificates (Calico: `etcd_ca_cert_file`, `ETCD_CA_CERT_FILE`). */
  caFile?: string;
  /** Client certificate for mutual TLS (`etcd_cert_file`, `ETCD_CERT_FILE`). */
  certFile?: string;
  /** Client private key for mutual TLS (`etcd_key_file`, `ETCD_KEY_FILE`). */
  keyFile?: string;
  /** Name to verify in the server certificate when it differs from the endpoint's host. */
  serverName?: string;
}

/** The etcd datastore's connection. */
export interface EtcdConnectionConfig {
  type: 'etcd';
  /** `http://` or `https://` client URLs, without user info. */
  endpoints: string[];
  prefix?: string;
  tls?: EtcdTlsConfig;
  /** etcd's own authentication (`ETCD_USERNAME` / `ETCD_PASSWORD`). */
  username?: string;
  password?: string;
  /**
   * Which etcd client speaks to the server: `http` (etcd's JSON gateway over node:http(s), no gRPC
   * stack to load: what a CNI call uses) or `grpc` (the etcd3 library). Default `http`.
   */
  client?: 'http' | 'grpc';
}

export type DatastoreConfig =
  | { type: 'memory' }
  | {
      type: 'sqlite';
      path: string;
      readonly?: boolean;
      /** WAL pages at which a commit checkpoints and truncates the WAL; see SqliteDatastoreOptions. */
      walTruncatePages?: number;
    }
  | EtcdConnectionConfig
  | { type: 'kubernetes'; kubeconfig?: string; apiGroup?: 'crd.projectcalico.org/v1' | 'projectcalico.org/v3' };

type BackendFactory = (config: DatastoreConfig) => Datastore | Promise<Datastore>;

/** The named factory of a lazily loaded backend module, or a clear error if this build lacks it. */
function backendFactory(module: object, name: string): BackendFactory {
  const factory: unknown = (module as Record<string, unknown>)[name];
  if (typeof factory !== 'function') throw new DatastoreConfigError(`this build of @ipamkit/ipam-datastore has no ${name}`);
  return factory as BackendFactory;
}

/**
 * Whether `err` is Node failing to resolve `pkg` itself (not a module inside it): ESM says
 * `Cannot find package 'x'`, CommonJS `Cannot find module 'x'`.
 */
function isMissingPackage(err: unknown, pkg: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return err instanceof Error && (err.message.includes(`'${pkg}'`) || err.message.includes(`"${pkg}"`));
}

/**
 * Loads a backend module whose client library is an optional peer dependency
 * (design/ipam-datastore.md, "Packaging"): when that library is not installed the caller gets a
 * DatastoreConfigError that names the package to install, not Node's resolution error.
 */
export async function importBackend<T>(backend: string, pkg: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissingPackage(err, pkg)) {
      throw new DatastoreConfigError(`the ${backend} datastore needs the package ${pkg}, which is not installed: add it to your dependencies (npm install ${pkg})`);
    }
    throw err;
  }
}

/**
 * Opens the configured backend. Each backend sits behind its own subpath and is imported only
 * here, on demand, so that a CNI invocation on SQLite never loads the etcd or Kubernetes clients.
 * Backends never retry conflicts; callers wrap read-modify-write in the core's `withCasRetry`.
 */
export async function createDatastore(config: DatastoreConfig): Promise<Datastore> {
  switch (config.type) {
    case 'memory': {
      const { createMemoryDatastore } = await import('./memory/index.js');
      return createMemoryDatastore();
    }
    case 'sqlite': {
      if (config.path === '') throw new DatastoreConfigError('sqlite datastore needs a file path');
      const { createSqliteDatastore } = await importBackend('sqlite', 'better-sqlite3', () => import('./sqlite/index.js'));
      return createSqliteDatastore({
        path: config.path,
        readonly: config.readonly === true,
        ...(config.walTruncatePages === undefined ? {} : { walTruncatePages: config.walTruncatePages }),
      });
    }
    case 'etcd': {
      if (config.endpoints.length === 0) throw new DatastoreConfigError('etcd datastore needs at least one endpoint');
      const factory = backendFactory(await importBackend('etcd', 'etcd3', () => import('./etcd/index.js')), 'createEtcdDatastore');
      // Endpoints, TLS files, credentials and the client choice all go through; createEtcdDatastore
      // refuses user info in an endpoint and unreadable TLS files with a DatastoreConfigError.
      const { endpoints, prefix, tls, username, password, client } = config;
      return factory(definedFields({ type: 'etcd' as const, endpoints, prefix, tls, username, password, client }));
    }
    case 'kubernetes': {
      const factory = backendFactory(await importBackend('kubernetes', '@kubernetes/client-node', () => import('./kubernetes/index.js')), 'createKubernetesDatastore');
      return factory(config);
    }
    default:
      throw new DatastoreConfigError(`unknown datastore type ${JSON.stringify((config as { type?: unknown }).type)}`);
  }
}

/** Resolves the environment's config with `resolveDatastoreConfig` (design/ipam-datastore.md, "Configuration") and opens it. */
export async function datastoreFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: DatastoreOverrides = {}, names: OverrideNames = {}): Promise<Datastore> {
  return createDatastore(resolveDatastoreConfig(env, overrides, names));
}
