import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DatastoreConfig } from '@ipamkit/ipam-datastore';
import { NetworkConfigError } from '../errors.js';
import type { NetConf } from './net-config.js';

export const DEFAULT_SQLITE_PATH = '/var/lib/ipamkit/ipam.db';

type Env = Readonly<Record<string, string | undefined>>;

function pick(fromConf: string | undefined, env: Env, name: string): string | undefined {
  if (fromConf !== undefined && fromConf !== '') return fromConf;
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The datastore a network config names (spec/cni.md §8): config keys win over the environment
 * variables Calico exports them to; no type means etcdv3 when ETCD_ENDPOINTS is set, else
 * kubernetes. `sqlite` (with `sqlite_path`) is ipamkit's single-host mode.
 */
export function datastoreConfigFor(conf: NetConf, env: Env): DatastoreConfig {
  const endpoints = pick(conf.etcd.endpoints, env, 'ETCD_ENDPOINTS');
  const authority = pick(conf.etcd.authority, env, 'ETCD_AUTHORITY');
  const type = pick(conf.datastoreType, env, 'DATASTORE_TYPE') ?? (endpoints !== undefined || authority !== undefined ? 'etcdv3' : 'kubernetes');
  switch (type) {
    case 'sqlite':
      return { type: 'sqlite', path: pick(conf.sqlitePath, env, 'IPAMKIT_SQLITE_PATH') ?? DEFAULT_SQLITE_PATH };
    case 'etcdv3': {
      for (const [key, value] of [['etcd_key_file', pick(conf.etcd.keyFile, env, 'ETCD_KEY_FILE')], ['etcd_cert_file', pick(conf.etcd.certFile, env, 'ETCD_CERT_FILE')], ['etcd_ca_cert_file', pick(conf.etcd.caCertFile, env, 'ETCD_CA_CERT_FILE')], ['etcd_discovery_srv', pick(conf.etcd.discoverySrv, env, 'ETCD_DISCOVERY_SRV')]] as const) {
        if (value !== undefined) throw new NetworkConfigError(`${key} is not supported by ipamkit's etcd datastore yet`);
      }
      const scheme = pick(conf.etcd.scheme, env, 'ETCD_SCHEME') ?? 'http';
      const list = endpoints !== undefined ? endpoints.split(',') : authority !== undefined ? [`${scheme}://${authority}`] : [];
      const urls = list.map((e) => e.trim()).filter((e) => e !== '');
      if (urls.length === 0) throw new NetworkConfigError('datastore_type etcdv3 needs etcd_endpoints or etcd_authority');
      for (const url of urls) {
        if (!/^https?:\/\/[^\s/]+\/?$/.test(url)) throw new NetworkConfigError(`invalid etcd endpoint ${JSON.stringify(url)}`);
      }
      const prefix = pick(conf.etcd.prefix, env, 'IPAMKIT_ETCD_PREFIX');
      return prefix === undefined ? { type: 'etcd', endpoints: urls } : { type: 'etcd', endpoints: urls, prefix };
    }
    case 'kubernetes': {
      const group = pick(conf.calicoApiGroup, env, 'CALICO_API_GROUP');
      const apiGroup = group !== undefined && group.toLowerCase() === 'projectcalico.org/v3' ? 'projectcalico.org/v3' : 'crd.projectcalico.org/v1';
      let kubeconfig = pick(conf.kubernetes.kubeconfig, env, 'KUBECONFIG');
      const home = join(env.HOME ?? homedir(), '.kube', 'config');
      if (kubeconfig === undefined && existsSync(home)) kubeconfig = home;
      const base = { type: 'kubernetes' as const, apiGroup } as DatastoreConfig & { type: 'kubernetes' };
      return kubeconfig === undefined ? base : { ...base, kubeconfig };
    }
    default:
      throw new NetworkConfigError(`unknown datastore_type ${JSON.stringify(type)}: use sqlite, etcdv3 or kubernetes`);
  }
}
