import type { DatastoreConfig, EtcdConnectionConfig, EtcdTlsConfig } from '../create-datastore.js';
import { definedFields } from '@ipamkit/models';
import { DatastoreConfigError } from '../errors.js';
import { DATASTORE_ENV_NAMES, type DatastoreOverrides, type DatastoreSetting, type OverrideNames } from './datastore-overrides.js';
import { parseEtcdEndpoints } from './etcd-endpoints.js';

/** Where the CNI plugin keeps its single-host SQLite file when no path is given. */
export const DEFAULT_SQLITE_PATH = '/var/lib/ipamkit/ipam.db';

export type ConfigEnv = Readonly<Record<string, string | undefined>>;

export const DATASTORE_TYPES = ['etcdv3', 'kubernetes', 'sqlite', 'memory'] as const;

const API_GROUPS = ['crd.projectcalico.org/v1', 'projectcalico.org/v3'] as const;
type ApiGroup = (typeof API_GROUPS)[number];

/** A setting's value and the name of where it came from (the caller's flag or the variable). */
interface Setting {
  readonly value: string;
  readonly source: string;
}

/** Reads each setting once: the override if non-empty, else the environment variable if non-empty. */
class Settings {
  constructor(
    private readonly env: ConfigEnv,
    private readonly overrides: DatastoreOverrides,
    private readonly names: OverrideNames,
  ) {}

  get(key: DatastoreSetting): Setting | undefined {
    const given = this.overrides[key];
    if (given !== undefined && given !== '') return { value: given, source: this.names[key] ?? key };
    const envName = DATASTORE_ENV_NAMES[key];
    const fromEnv = this.env[envName];
    return fromEnv === undefined || fromEnv === '' ? undefined : { value: fromEnv, source: envName };
  }

  value(key: DatastoreSetting): string | undefined {
    return this.get(key)?.value;
  }
}

const NO_ETCD_SERVER = 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY';

function etcdEndpointsOf(s: Settings): string[] {
  const endpoints = s.get('etcdEndpoints');
  if (endpoints !== undefined) {
    const list = parseEtcdEndpoints(endpoints.value, endpoints.source);
    if (list.length === 0) throw new DatastoreConfigError(NO_ETCD_SERVER);
    return list;
  }
  const authority = s.get('etcdAuthority');
  if (authority === undefined) throw new DatastoreConfigError(NO_ETCD_SERVER);
  const scheme = s.get('etcdScheme');
  if (scheme !== undefined && scheme.value !== 'http' && scheme.value !== 'https') {
    throw new DatastoreConfigError(`${scheme.source} must be http or https, got ${JSON.stringify(scheme.value)}`);
  }
  return parseEtcdEndpoints(`${scheme?.value ?? 'http'}://${authority.value}`, authority.source);
}

function etcdTlsOf(s: Settings): EtcdTlsConfig | undefined {
  const cert = s.get('etcdCertFile');
  const key = s.get('etcdKeyFile');
  if (cert !== undefined && key === undefined) throw new DatastoreConfigError(`${cert.source} needs ETCD_KEY_FILE as well (the client certificate's key)`);
  if (key !== undefined && cert === undefined) throw new DatastoreConfigError(`${key.source} needs ETCD_CERT_FILE as well (the key's client certificate)`);
  const tls: EtcdTlsConfig = definedFields({ caFile: s.value('etcdCaCertFile'), certFile: cert?.value, keyFile: key?.value });
  return Object.keys(tls).length === 0 ? undefined : tls;
}

function etcdConfigOf(s: Settings): EtcdConnectionConfig {
  const srv = s.get('etcdDiscoverySrv');
  if (srv !== undefined) throw new DatastoreConfigError(`${srv.source} (etcd DNS discovery) is not supported: list the servers in ETCD_ENDPOINTS`);
  const endpoints = etcdEndpointsOf(s);
  const tls = etcdTlsOf(s);
  const username = s.get('etcdUsername');
  const password = s.get('etcdPassword');
  // The password's value is never part of a message; only the name of where it came from.
  if (password !== undefined && username === undefined) throw new DatastoreConfigError(`${password.source} is set but ETCD_USERNAME is not`);
  if (username !== undefined && password === undefined) throw new DatastoreConfigError(`${username.source} is set but ETCD_PASSWORD is not`);
  return {
    type: 'etcd',
    endpoints,
    ...definedFields({ prefix: s.value('etcdPrefix'), tls }),
    ...(username === undefined || password === undefined ? {} : { username: username.value, password: password.value }),
  };
}

function apiGroupOf(s: Settings): ApiGroup {
  const group = s.get('apiGroup');
  if (group === undefined) return 'crd.projectcalico.org/v1';
  const found = API_GROUPS.find((g) => g === group.value.toLowerCase());
  if (found === undefined) throw new DatastoreConfigError(`${group.source} must be ${API_GROUPS.join(' or ')}, got ${JSON.stringify(group.value)}`);
  return found;
}

/**
 * The one resolution of a datastore configuration (design/ipam-datastore.md, "Configuration"):
 * each setting from the caller's override, else its environment variable, else its default. With
 * no type, etcdv3 when etcd endpoints or an authority are set, else kubernetes. Pure; every error
 * is a `DatastoreConfigError` naming the variable or flag at fault and never a secret's value.
 */
export function resolveDatastoreConfig(env: ConfigEnv, overrides: DatastoreOverrides = {}, names: OverrideNames = {}): DatastoreConfig {
  const s = new Settings(env, overrides, names);
  const type = s.get('datastoreType');
  const hasEtcd = s.get('etcdEndpoints') !== undefined || s.get('etcdAuthority') !== undefined;
  switch (type?.value ?? (hasEtcd ? 'etcdv3' : 'kubernetes')) {
    case 'memory':
      return { type: 'memory' };
    case 'sqlite':
      return { type: 'sqlite', path: s.value('sqlitePath') ?? DEFAULT_SQLITE_PATH };
    case 'etcdv3':
      return etcdConfigOf(s);
    case 'kubernetes': {
      const apiGroup = apiGroupOf(s);
      const kubeconfig = s.value('kubeconfig');
      return kubeconfig === undefined ? { type: 'kubernetes', apiGroup } : { type: 'kubernetes', kubeconfig, apiGroup };
    }
    default:
      throw new DatastoreConfigError(`${type?.source ?? 'DATASTORE_TYPE'} must be one of ${DATASTORE_TYPES.join(', ')}; got ${JSON.stringify(type?.value)}`);
  }
}
