// Writes the bundle as the single executable compiles it (dist/sea/calico-ipam.wrapped.cjs) and records
// the V8 code caches the executable ships (design/cni.md, "Start-up cost"): for each
// datastore and verb (ADD, DEL), in a process of its own, compiles dist/sea/calico-ipam.cjs exactly
// as scripts/sea-loader.cjs does, runs it in-process for that verb on that datastore in its steady
// state, the node's block already claimed (a throw-away SQLite file, the Kubernetes API test server,
// a throw-away etcd when Debian's etcd is installed), and writes the cache of everything compiled
// (dist/sea/calico-ipam.<datastore>.<verb>.cache); and VERSION's answer (dist/sea/calico-ipam.version). Runs in this build's node, which is the binary the executable is
// made of, so V8 accepts the caches.
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { DEFAULT_ETCD_BINARY, startEtcd, startKubeApiServer } from '@ipamkit/test-utils';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const bundle = join(dist, 'sea', 'calico-ipam.cjs');
/** The cache of one datastore's calls: `add` serves every command but DEL (design/cni.md, "Start-up cost"). */
const cacheFile = (datastore, verb) => join(dist, 'sea', `calico-ipam.${datastore}.${verb}.cache`);
const crdDir = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));
const dir = fs.mkdtempSync(join(tmpdir(), 'calico-ipam-train-'));
const NODE = 'train-node';

/**
 * The pool, the node and the node's block: the calls trained are the ones a node makes all day.
 * Claiming a block (once per 64 pods) and CHECK (which runtimes seldom send) compile on their
 * first use instead of being deserialised by every call. The claim goes through the workspace's
 * ipam-core, a different source from the bundle, so nothing it compiles reaches the cache.
 */
async function seed(config) {
  const ds = await createDatastore(config);
  await ds.nodes.create({ name: NODE });
  await ds.ipPools.create({ name: 'train-pool', cidr: '10.99.0.0/16', blockSize: 26 });
  await createIpamClient({ datastore: ds }).autoAssign({ num4: 1, hostname: NODE, handleId: 'train-claim', intendedUse: 'Workload' });
  await ds.close();
}

const bundleSource = fs.readFileSync(bundle, 'utf8');
// The loader decodes the bundle as Latin-1 from the executable's raw bytes: it must be ASCII.
if (Buffer.byteLength(bundleSource, 'utf8') !== bundleSource.length) throw new Error(`train-code-cache: ${bundle} is not ASCII; the single executable's loader reads it as Latin-1`);
/**
 * The text the executable compiles: the bundle inside CommonJS's function wrapper, written once
 * here as an asset of its own. Wrapped by the loader at run time, the source was a concatenation
 * V8 copied whole into a flat string before it could look the cache up (design/cni.md, "Start-up
 * cost").
 */
const source = Module.wrap(bundleSource);

/** The name the loader compiles the bundle under; a cache keeps it, and stack traces show it. */
const BUNDLE_NAME = 'calico-ipam.cjs';

/**
 * A fresh compilation of the bundle, as the loader makes it: its cache holds what its calls compile.
 * V8 hands a second compilation of the same source and name in one process the functions the first
 * one compiled, so a compilation whose cache is kept is the first of its name in its process; a
 * DEL's set-up (the ADD it deletes) compiles under another name.
 */
function compile(name = BUNDLE_NAME) {
  const script = new Script(source, { filename: name });
  return { script, run: script.runInThisContext() };
}

/** One call of the bundle, as the executable makes it: environment in, config as stdin, the answer out. */
async function call({ run }, env, stdin) {
  const realExit = process.exit;
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
    fs.writeSync = (fd, data, ...rest) => {
      if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, ...rest);
      if (fd === 1) answer += String(data);
      return Buffer.byteLength(data);
    };
    const module = { exports: {} };
    run(module.exports, createRequire(bundle), module, 'calico-ipam.cjs', '.');
    module.exports.pluginMain(() => stdin);
    const code = await exited;
    if (code !== 0) throw new Error(`training ${env.CNI_COMMAND} failed with exit ${code}: ${answer}`);
    return answer;
  } finally {
    process.exit = realExit;
    fs.writeSync = realWriteSync;
    process.execPath = realExecPath;
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** `verb` (ADD or DEL; a DEL of a container ADDed first under another name) of one container; writes its cache. */
async function train(verb, datastore, keys, containerId, cniArgs) {
  const conf = {
    cniVersion: '1.0.0', name: 'train-net', type: 'calico', nodename: NODE,
    ipam_lock_file: join(dir, 'ipam.lock'), ipam: { type: 'calico-ipam' }, ...keys,
  };
  const env = { CNI_CONTAINERID: containerId, CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni', ...(cniArgs === undefined ? {} : { CNI_ARGS: cniArgs }) };
  if (verb === 'DEL') await call(compile(`${BUNDLE_NAME} (training set-up)`), { ...env, CNI_COMMAND: 'ADD' }, JSON.stringify(conf));
  const compiled = compile();
  await call(compiled, { ...env, CNI_COMMAND: verb }, JSON.stringify(conf));
  fs.writeFileSync(cacheFile(datastore, verb.toLowerCase()), compiled.script.createCachedData());
}

/** The training of one datastore and verb: its server on loopback, the calls, the cache. */
const TRAININGS = {
  async sqlite(verb) {
    const db = join(dir, 'ipam.db');
    await seed({ type: 'sqlite', path: db });
    await train(verb, 'sqlite', { datastore_type: 'sqlite', sqlite_path: db }, 'train-sqlite');
  },
  async kubernetes(verb) {
    const server = await startKubeApiServer({ crdDirectories: [crdDir] });
    try {
      const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
      await seed({ type: 'kubernetes', kubeconfig });
      server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'train' } });
      server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'train-pod', namespace: 'train' } });
      await train(verb, 'kubernetes', { datastore_type: 'kubernetes', kubernetes: { kubeconfig }, policy: { type: 'k8s' } }, 'train-kube', 'IgnoreUnknown=1;K8S_POD_NAMESPACE=train;K8S_POD_NAME=train-pod');
    } finally {
      await server.close();
    }
  },
  async etcd(verb) {
    // etcd is a system package: where it is installed (CI, a developer's machine) its path is trained.
    if (!fs.existsSync(DEFAULT_ETCD_BINARY)) {
      // The executable still needs the asset: the top level only.
      process.stderr.write(`train-code-cache: ${DEFAULT_ETCD_BINARY} is not installed; the etcd cache holds the top level only\n`);
      const untrained = compile();
      await call(untrained, { CNI_COMMAND: 'VERSION' }, '');
      fs.writeFileSync(cacheFile('etcd', verb.toLowerCase()), untrained.script.createCachedData());
      return;
    }
    const etcd = await startEtcd();
    try {
      await seed({ type: 'etcd', endpoints: [etcd.endpoint], prefix: '/train' });
      await train(verb, 'etcd', { datastore_type: 'etcdv3', etcd_endpoints: etcd.endpoint, etcd_prefix: '/train' }, 'train-etcd');
    } finally {
      await etcd.stop();
    }
  },
};

const VERBS = ['ADD', 'DEL'];
const [only, onlyVerb] = process.argv.slice(2);
try {
  if (only !== undefined) {
    const training = TRAININGS[only];
    if (training === undefined) throw new Error(`train-code-cache: no datastore ${only}`);
    if (!VERBS.includes(onlyVerb)) throw new Error(`train-code-cache: no verb ${onlyVerb}`);
    await training(onlyVerb);
  } else {
    fs.writeFileSync(join(dist, 'sea', 'calico-ipam.wrapped.cjs'), source);
    // VERSION's answer depends on nothing but the build: the executable answers it from this asset.
    fs.writeFileSync(join(dist, 'sea', 'calico-ipam.version'), await call(compile(), { CNI_COMMAND: 'VERSION' }, ''));
    // One process per datastore and verb: V8 shares compiled functions between compilations of one
    // source in a process, so a cache recorded after another training would hold its functions too
    // (and every call would deserialise them).
    for (const name of Object.keys(TRAININGS)) {
      for (const verb of VERBS) execFileSync(process.execPath, [fileURLToPath(import.meta.url), name, verb], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
