// The three datastores the bench runs the plugin against, each started on loopback with a pool and
// the node seeded: SQLite (a file), a real etcd (Debian's /usr/bin/etcd) and the Kubernetes API test
// server (a process of its own, serving Calico's CRDs).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { startEtcd } from '@ipamkit/test-utils';

export const NODE = 'bench-node';
const POOL = { name: 'bench-pool', cidr: '10.90.0.0/16', blockSize: 26 };

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

/** The Kubernetes API test server, forked into its own process; `inject` resolves once the object is in. */
async function forkKubeApiServer(kubeconfig) {
  const child = fork(fileURLToPath(new URL('./kube-api-server-process.mjs', import.meta.url)), [kubeconfig], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let next = 0;
  await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the Kubernetes API test server exited with ${String(code)} before it was ready`)));
    child.on('message', (message) => {
      if (message.ready === true) resolve();
      else waiting.get(message.id)?.();
      waiting.delete(message.id);
    });
  });
  child.removeAllListeners('exit');
  return {
    inject: (object) => new Promise((resolve) => {
      next += 1;
      waiting.set(next, resolve);
      child.send({ id: next, inject: object });
    }),
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.disconnect();
    }),
  };
}

/** Calico's usual config: the Kubernetes datastore and `policy.type: k8s`, so every ADD also reads its pod. */
export async function kubernetesBackend(dir) {
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await forkKubeApiServer(kubeconfig);
  await seed({ type: 'kubernetes', kubeconfig });
  await server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const pods = new Set();
  return {
    name: 'Kubernetes',
    conf: netConf(dir, { datastore_type: 'kubernetes', kubernetes: { kubeconfig }, policy: { type: 'k8s' } }),
    cniArgs: async (id) => {
      if (!pods.has(id)) {
        await server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: id, namespace: 'bench' } });
        pods.add(id);
      }
      return `IgnoreUnknown=1;K8S_POD_NAMESPACE=bench;K8S_POD_NAME=${id}`;
    },
    stop: () => server.stop(),
  };
}
