import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DatastoreConfigError, DEFAULT_SQLITE_PATH, resolveDatastoreConfig, type DatastoreConfig, type DatastoreOverrides, type OverrideNames } from '@ipamkit/ipam-datastore';
import { NetworkConfigError } from '../errors.js';
import type { NetConf } from './net-config.js';

export { DEFAULT_SQLITE_PATH };

type Env = Readonly<Record<string, string | undefined>>;

/** The netconf key behind each override, so an error names the key at fault (design/cni.md, "Datastore configuration"). */
export const NETCONF_DATASTORE_KEYS: OverrideNames = {
  datastoreType: 'datastore_type',
  etcdEndpoints: 'etcd_endpoints',
  etcdAuthority: 'etcd_authority',
  etcdScheme: 'etcd_scheme',
  etcdDiscoverySrv: 'etcd_discovery_srv',
  etcdCaCertFile: 'etcd_ca_cert_file',
  etcdCertFile: 'etcd_cert_file',
  etcdKeyFile: 'etcd_key_file',
  etcdPrefix: 'etcd_prefix',
  sqlitePath: 'sqlite_path',
  kubeconfig: 'kubernetes.kubeconfig',
  apiGroup: 'calico_api_group',
};

/** The network config's datastore keys as resolver overrides; nothing here reads the environment. */
export function netconfDatastoreOverrides(conf: NetConf): DatastoreOverrides {
  const { etcd } = conf;
  const entries: [keyof DatastoreOverrides, string | undefined][] = [
    ['datastoreType', conf.datastoreType],
    ['etcdEndpoints', etcd.endpoints],
    ['etcdAuthority', etcd.authority],
    ['etcdScheme', etcd.scheme],
    ['etcdDiscoverySrv', etcd.discoverySrv],
    ['etcdCaCertFile', etcd.caCertFile],
    ['etcdCertFile', etcd.certFile],
    ['etcdKeyFile', etcd.keyFile],
    ['etcdPrefix', etcd.prefix],
    ['sqlitePath', conf.sqlitePath],
    ['kubeconfig', conf.kubernetes.kubeconfig],
    ['apiGroup', conf.calicoApiGroup],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

/**
 * The datastore a network config names (design/cni.md, "Datastore configuration"): the config's
 * keys are overrides of the one resolver in @ipamkit/ipam-datastore, which reads the environment
 * variables Calico exports them to. A bad value is a NetworkConfigError (code 7). Kubernetes
 * without a kubeconfig uses ~/.kube/config when it exists, as Calico's plugin does.
 */
export function datastoreConfigFor(conf: NetConf, env: Env): DatastoreConfig {
  let config: DatastoreConfig;
  try {
    config = resolveDatastoreConfig(env, netconfDatastoreOverrides(conf), NETCONF_DATASTORE_KEYS);
  } catch (err) {
    if (err instanceof DatastoreConfigError) throw new NetworkConfigError(err.message);
    throw err;
  }
  if (config.type !== 'kubernetes' || config.kubeconfig !== undefined) return config;
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  return existsSync(home) ? { ...config, kubeconfig: home } : config;
}
