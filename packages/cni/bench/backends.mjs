// The three datastores the bench runs the plugin against, each started on loopback with a pool and
// the node seeded: SQLite (a file), a real etcd (Debian's /usr/bin/etcd) and the Kubernetes API test
// server (in this process, serving Calico's CRDs).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { startEtcd, startKubeApiServer } from '@ipamkit/test-utils';

export const NODE = 'bench-node';
const POOL = { name: 'bench-pool', cidr: '10.90.0.0/16', blockSize: 26 };
const CRD_DIR = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));

async function seed(config) {
  const ds = await createDatastore(config);
  await ds.nodes.create({ name: NODE });
  await ds.ipPools.create(POOL);
  await ds.close();
}

/** A network config as Calico's main plugin hands it over, with the datastore keys of one backend. */
function netConf(dir, keys) {
  return JSON.stringify({
    cniVersion: '1.0.0', name: 'bench-net', type: 'calico', nodename: NODE,
    ipam_lock_file: join(dir, 'ipam.lock'), ipam: { type: 'calico-ipam' }, ...keys,
  });
}

export async function sqliteBackend(dir) {
  const path = join(dir, 'ipam.db');
  await seed({ type: 'sqlite', path });
  return { name: 'SQLite', conf: netConf(dir, { datastore_type: 'sqlite', sqlite_path: path }), cniArgs: () => undefined, async stop() {} };
}

export async function etcdBackend(dir) {
  const etcd = await startEtcd();
  const prefix = '/bench';
  await seed({ type: 'etcd', endpoints: [etcd.endpoint], prefix });
  return {
    name: 'etcd',
    conf: netConf(dir, { datastore_type: 'etcdv3', etcd_endpoints: etcd.endpoint, etcd_prefix: prefix }),
    cniArgs: () => undefined,
    stop: () => etcd.stop(),
  };
}

/** Calico's usual config: the Kubernetes datastore and `policy.type: k8s`, so every ADD also reads its pod. */
export async function kubernetesBackend(dir) {
  const server = await startKubeApiServer({ crdDirectories: [CRD_DIR] });
  const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
  await seed({ type: 'kubernetes', kubeconfig });
  server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const pods = new Set();
  return {
    name: 'Kubernetes',
    conf: netConf(dir, { datastore_type: 'kubernetes', kubernetes: { kubeconfig }, policy: { type: 'k8s' } }),
    cniArgs: (id) => {
      if (!pods.has(id)) {
        server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: id, namespace: 'bench' } });
        pods.add(id);
      }
      return `IgnoreUnknown=1;K8S_POD_NAMESPACE=bench;K8S_POD_NAME=${id}`;
    },
    stop: () => server.close(),
  };
}
