// Records the V8 code cache the single executable ships (design/cni.md, "Start-up cost"): compiles
// dist/sea/calico-ipam.cjs exactly as scripts/sea-loader.cjs does, runs it in-process for a VERSION
// and for an ADD, a CHECK and a DEL on each datastore it can reach here (a throw-away SQLite file,
// the Kubernetes API test server, and a throw-away etcd when Debian's etcd is installed), then writes
// the cache of everything compiled, and VERSION's answer (dist/sea/calico-ipam.version). Runs in
// this build's node, which is the binary the executable is made of, so V8 accepts the cache.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { DEFAULT_ETCD_BINARY, startEtcd, startKubeApiServer } from '@ipamkit/test-utils';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const bundle = join(dist, 'sea', 'calico-ipam.cjs');
const cacheFile = join(dist, 'sea', 'calico-ipam.cache');
const crdDir = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));
const dir = fs.mkdtempSync(join(tmpdir(), 'calico-ipam-train-'));
const NODE = 'train-node';

async function seed(config) {
  const ds = await createDatastore(config);
  await ds.nodes.create({ name: NODE });
  await ds.ipPools.create({ name: 'train-pool', cidr: '10.99.0.0/16', blockSize: 26 });
  await ds.close();
}

const script = new Script(Module.wrap(fs.readFileSync(bundle, 'utf8')), { filename: 'calico-ipam.cjs' });
const run = script.runInThisContext();

/** One call of the bundle, as the executable makes it: environment in, config as stdin, the answer out. */
async function call(env, stdin) {
  const realExit = process.exit;
  const realReadFileSync = fs.readFileSync;
  const realWriteSync = fs.writeSync;
  const realExecPath = process.execPath;
  const saved = { ...process.env };
  let answer = '';
  try {
    Object.assign(process.env, env);
    // The bundle's addon shim looks beside process.execPath, where the executable will be.
    process.execPath = join(dist, 'calico-ipam');
    const exited = new Promise((resolve) => {
      process.exit = (code) => resolve(code ?? 0);
    });
    fs.readFileSync = (file, ...rest) => (file === 0 ? stdin : realReadFileSync(file, ...rest));
    fs.writeSync = (fd, data, ...rest) => {
      if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, ...rest);
      if (fd === 1) answer += String(data);
      return Buffer.byteLength(data);
    };
    const module = { exports: {} };
    run(module.exports, createRequire(bundle), module, 'calico-ipam.cjs', '.');
    const code = await exited;
    if (code !== 0) throw new Error(`training ${env.CNI_COMMAND} failed with exit ${code}: ${answer}`);
    return answer;
  } finally {
    process.exit = realExit;
    fs.readFileSync = realReadFileSync;
    fs.writeSync = realWriteSync;
    process.execPath = realExecPath;
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** ADD, CHECK (with ADD's answer as prevResult, as a runtime does) and DEL of one container. */
async function train(keys, containerId, cniArgs) {
  const conf = {
    cniVersion: '1.0.0', name: 'train-net', type: 'calico', nodename: NODE,
    ipam_lock_file: join(dir, 'ipam.lock'), ipam: { type: 'calico-ipam' }, ...keys,
  };
  const env = { CNI_CONTAINERID: containerId, CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni', ...(cniArgs === undefined ? {} : { CNI_ARGS: cniArgs }) };
  const added = JSON.parse(await call({ ...env, CNI_COMMAND: 'ADD' }, JSON.stringify(conf)));
  await call({ ...env, CNI_COMMAND: 'CHECK' }, JSON.stringify({ ...conf, prevResult: added }));
  await call({ ...env, CNI_COMMAND: 'DEL' }, JSON.stringify(conf));
}

try {
  // VERSION's answer depends on nothing but the build: the executable answers it from this asset.
  fs.writeFileSync(join(dist, 'sea', 'calico-ipam.version'), await call({ CNI_COMMAND: 'VERSION' }, ''));

  const db = join(dir, 'ipam.db');
  await seed({ type: 'sqlite', path: db });
  await train({ datastore_type: 'sqlite', sqlite_path: db }, 'train-sqlite');

  const server = await startKubeApiServer({ crdDirectories: [crdDir] });
  try {
    const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
    await seed({ type: 'kubernetes', kubeconfig });
    server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'train' } });
    server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'train-pod', namespace: 'train' } });
    await train({ datastore_type: 'kubernetes', kubernetes: { kubeconfig }, policy: { type: 'k8s' } }, 'train-kube', 'IgnoreUnknown=1;K8S_POD_NAMESPACE=train;K8S_POD_NAME=train-pod');
  } finally {
    await server.close();
  }

  // etcd is a system package: where it is installed (CI, a developer's machine) its path is trained too.
  if (fs.existsSync(DEFAULT_ETCD_BINARY)) {
    const etcd = await startEtcd();
    try {
      await seed({ type: 'etcd', endpoints: [etcd.endpoint], prefix: '/train' });
      await train({ datastore_type: 'etcdv3', etcd_endpoints: etcd.endpoint, etcd_prefix: '/train' }, 'train-etcd');
    } finally {
      await etcd.stop();
    }
  } else {
    process.stderr.write(`train-code-cache: ${DEFAULT_ETCD_BINARY} is not installed; the etcd path is not in the code cache\n`);
  }
  fs.writeFileSync(cacheFile, script.createCachedData());
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
