import type { DatastoreConfig } from '@ipamkit/ipam-datastore';
import { definedFields, isRecord } from '@ipamkit/models';
import { CliUsageError } from '../errors.js';

type Json = Record<string, unknown>;

/** The plugin-level keys that tell calico-ipam its node and datastore (design/cni.md, "Datastore configuration"). */
export function pluginDatastoreKeys(config: DatastoreConfig, nodeName: string): Json {
  const base = { nodename: nodeName };
  switch (config.type) {
    case 'sqlite':
      return { ...base, datastore_type: 'sqlite', sqlite_path: config.path };
    case 'kubernetes':
      return { ...base, datastore_type: 'kubernetes', kubernetes: definedFields({ kubeconfig: config.kubeconfig }) };
    case 'etcd':
      return {
        ...base,
        datastore_type: 'etcdv3',
        etcd_endpoints: config.endpoints.join(','),
        ...definedFields({ etcd_prefix: config.prefix, etcd_ca_cert_file: config.tls?.caFile }),
        ...definedFields({ etcd_cert_file: config.tls?.certFile, etcd_key_file: config.tls?.keyFile }),
      };
    case 'memory':
      throw new CliUsageError('install-cni cannot point the plugin at the memory datastore: use sqlite, etcd or kubernetes');
  }
}

/**
 * The network a fresh node gets: Debian's `ptp` plugin delegating IPAM to calico-ipam, with the
 * link-local gateway and no per-address routes that ptp needs (design/cni.md, "Results").
 */
export function defaultConflist(keys: Json): Json {
  return {
    cniVersion: '1.0.0',
    name: 'k8s-pod-network',
    plugins: [{ type: 'ptp', ipMasq: false, ...keys, ipam: { type: 'calico-ipam', gateways: ['169.254.1.1'], routes: [] } }],
  };
}

/**
 * An existing conflist with calico-ipam as the IPAM of every plugin that has one (the first
 * plugin when none has), and that plugin's node and datastore keys set; everything else is kept.
 */
export function patchConflist(text: string, file: string, keys: Json): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CliUsageError(`${file} is not valid JSON (${(err as Error).message}): fix or remove it before installing`);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.plugins) || parsed.plugins.length === 0 || !parsed.plugins.every(isRecord)) {
    throw new CliUsageError(`${file} is not a conflist: it needs a non-empty "plugins" list of objects`);
  }
  const plugins = parsed.plugins;
  const withIpam = plugins.some((p) => isRecord(p.ipam));
  const patched = plugins.map((plugin, index) => {
    if (withIpam ? !isRecord(plugin.ipam) : index !== 0) return plugin;
    const ipam = isRecord(plugin.ipam) ? plugin.ipam : {};
    return { ...plugin, ...keys, ipam: { ...ipam, type: 'calico-ipam' } };
  });
  return { ...parsed, plugins: patched };
}

export function renderConflist(conflist: Json): string {
  return `${JSON.stringify(conflist, null, 2)}\n`;
}
