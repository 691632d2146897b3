import { describe, expect, it } from 'vitest';
import { resolveDatastoreConfig, DEFAULT_SQLITE_PATH } from '../../src/config/resolve-datastore-config.js';
import type { DatastoreOverrides, OverrideNames } from '../../src/config/datastore-overrides.js';
import type { DatastoreConfig } from '../../src/create-datastore.js';
import { DatastoreConfigError } from '../../src/errors.js';

const V1 = 'crd.projectcalico.org/v1';
const SECRET = 'hunter2-canary';

describe('resolveDatastoreConfig', () => {
  it.each<{ name: string; env: Record<string, string>; overrides?: DatastoreOverrides; config: DatastoreConfig }>([
    { name: 'memory', env: { DATASTORE_TYPE: 'memory' }, config: { type: 'memory' } },
    { name: 'sqlite with a path', env: { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: '/x.db' }, config: { type: 'sqlite', path: '/x.db' } },
    { name: 'sqlite without a path takes the default', env: { DATASTORE_TYPE: 'sqlite' }, config: { type: 'sqlite', path: DEFAULT_SQLITE_PATH } },
    { name: 'nothing set is kubernetes', env: {}, config: { type: 'kubernetes', apiGroup: V1 } },
    { name: 'no type with endpoints is etcdv3', env: { ETCD_ENDPOINTS: 'http://e1:2379, https://e2:2379/' }, config: { type: 'etcd', endpoints: ['http://e1:2379', 'https://e2:2379'] } },
    { name: 'no type with an authority is etcdv3', env: { ETCD_AUTHORITY: 'e1:2379', ETCD_SCHEME: 'https' }, config: { type: 'etcd', endpoints: ['https://e1:2379'] } },
    { name: 'endpoints win over the authority', env: { ETCD_ENDPOINTS: 'http://a:1', ETCD_AUTHORITY: 'b:2' }, config: { type: 'etcd', endpoints: ['http://a:1'] } },
    {
      name: 'etcd TLS, auth and prefix',
      env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: 'https://e1:2379', ETCD_CA_CERT_FILE: '/ca', ETCD_CERT_FILE: '/crt', ETCD_KEY_FILE: '/key', ETCD_USERNAME: 'root', ETCD_PASSWORD: SECRET, IPAMKIT_ETCD_PREFIX: '/p' },
      config: { type: 'etcd', endpoints: ['https://e1:2379'], prefix: '/p', tls: { caFile: '/ca', certFile: '/crt', keyFile: '/key' }, username: 'root', password: SECRET },
    },
    { name: 'kubernetes with KUBECONFIG and the v3 group', env: { DATASTORE_TYPE: 'kubernetes', KUBECONFIG: '/kc', CALICO_API_GROUP: 'ProjectCalico.org/v3' }, config: { type: 'kubernetes', kubeconfig: '/kc', apiGroup: 'projectcalico.org/v3' } },
    { name: 'an override wins over its variable', env: { DATASTORE_TYPE: 'kubernetes', IPAMKIT_SQLITE_PATH: '/env.db' }, overrides: { datastoreType: 'sqlite', sqlitePath: '/flag.db' }, config: { type: 'sqlite', path: '/flag.db' } },
    { name: 'the environment fills what the overrides leave out', env: { ETCD_CA_CERT_FILE: '/ca', IPAMKIT_ETCD_PREFIX: '/p' }, overrides: { etcdEndpoints: 'https://e:1' }, config: { type: 'etcd', endpoints: ['https://e:1'], prefix: '/p', tls: { caFile: '/ca' } } },
    { name: 'an empty override counts as unset', env: { DATASTORE_TYPE: 'memory' }, overrides: { datastoreType: '' }, config: { type: 'memory' } },
  ])('$name', ({ env, overrides, config }) => {
    expect(resolveDatastoreConfig(env, overrides)).toEqual(config);
  });

  it.each<{ name: string; env: Record<string, string>; overrides?: DatastoreOverrides; names?: OverrideNames; message: string }>([
    { name: 'an unknown type', env: { DATASTORE_TYPE: 'etcd' }, message: 'DATASTORE_TYPE must be one of etcdv3, kubernetes, sqlite, memory; got "etcd"' },
    { name: 'an unknown type from a flag', env: {}, overrides: { datastoreType: 'mysql' }, names: { datastoreType: '--datastore' }, message: '--datastore must be one of etcdv3, kubernetes, sqlite, memory; got "mysql"' },
    { name: 'etcdv3 without a server', env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: ' , ' }, message: 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY' },
    { name: 'a non-URL endpoint', env: { ETCD_ENDPOINTS: 'e1:2379' }, message: 'etcd endpoint 1 of ETCD_ENDPOINTS must be an http:// or https:// URL, got "e1:2379"' },
    { name: 'an endpoint with a path', env: { ETCD_ENDPOINTS: 'http://a:1,http://e1:2379/v3' }, message: 'etcd endpoint 2 of ETCD_ENDPOINTS must be scheme://host:port without a path, got "http://e1:2379/v3"' },
    { name: 'a bad scheme', env: { ETCD_AUTHORITY: 'e:1', ETCD_SCHEME: 'grpc' }, message: 'ETCD_SCHEME must be http or https, got "grpc"' },
    { name: 'a client certificate without its key', env: { ETCD_ENDPOINTS: 'https://e:1', ETCD_CERT_FILE: '/crt' }, message: 'ETCD_CERT_FILE needs ETCD_KEY_FILE as well (the client certificate\'s key)' },
    { name: 'a key without its certificate', env: { ETCD_ENDPOINTS: 'https://e:1' }, overrides: { etcdKeyFile: '/k' }, names: { etcdKeyFile: 'etcd_key_file' }, message: 'etcd_key_file needs ETCD_CERT_FILE as well (the key\'s client certificate)' },
    { name: 'a password without a user', env: { ETCD_ENDPOINTS: 'https://e:1', ETCD_PASSWORD: SECRET }, message: 'ETCD_PASSWORD is set but ETCD_USERNAME is not' },
    { name: 'a user without a password', env: { ETCD_ENDPOINTS: 'https://e:1', ETCD_USERNAME: 'root' }, message: 'ETCD_USERNAME is set but ETCD_PASSWORD is not' },
    { name: 'DNS discovery', env: { ETCD_ENDPOINTS: 'https://e:1', ETCD_DISCOVERY_SRV: 'example.com' }, message: 'ETCD_DISCOVERY_SRV (etcd DNS discovery) is not supported: list the servers in ETCD_ENDPOINTS' },
    { name: 'an unknown API group', env: { CALICO_API_GROUP: 'example.com/v9' }, message: 'CALICO_API_GROUP must be crd.projectcalico.org/v1 or projectcalico.org/v3, got "example.com/v9"' },
  ])('refuses $name, naming the variable or flag', ({ env, overrides, names, message }) => {
    expect(() => resolveDatastoreConfig(env, overrides, names)).toThrow(new DatastoreConfigError(message));
  });

  it.each([
    { source: 'ETCD_ENDPOINTS', env: { ETCD_ENDPOINTS: `http://root:${SECRET}@e1:2379` } },
    { source: 'ETCD_ENDPOINTS', env: { ETCD_ENDPOINTS: `root:${SECRET}@e1:2379` } },
    { source: 'ETCD_AUTHORITY', env: { ETCD_AUTHORITY: `root:${SECRET}@e1:2379` } },
    { source: 'etcd_endpoints', env: {}, overrides: { etcdEndpoints: `https://${SECRET}@e1:2379` } },
  ])('refuses user info in $source without repeating it', ({ source, env, overrides }) => {
    let message = '';
    try {
      resolveDatastoreConfig(env, overrides, { etcdEndpoints: 'etcd_endpoints' });
    } catch (err) {
      expect(err).toBeInstanceOf(DatastoreConfigError);
      message = (err as Error).message;
    }
    expect(message).toBe(`etcd endpoint 1 of ${source} carries user info (user:password@); give the credentials in ETCD_USERNAME and ETCD_PASSWORD instead`);
    expect(message).not.toContain(SECRET);
  });
});
