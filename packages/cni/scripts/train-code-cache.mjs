// Records the V8 code cache the single executable ships (design/cni.md, "Start-up cost"): compiles
// dist/sea/calico-ipam.cjs exactly as scripts/sea-loader.cjs does, runs it for a VERSION, an ADD, a
// CHECK and a DEL against a throw-away SQLite file, then writes the cache of everything compiled,
// and VERSION's answer (dist/sea/calico-ipam.version).
// Runs in this build's node, which is the binary the executable is made of, so V8 accepts the cache.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { createDatastore } from '@ipamkit/ipam-datastore';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const bundle = join(dist, 'sea', 'calico-ipam.cjs');
const cacheFile = join(dist, 'sea', 'calico-ipam.cache');
const dir = fs.mkdtempSync(join(tmpdir(), 'calico-ipam-train-'));

try {
  const db = join(dir, 'ipam.db');
  const seed = await createDatastore({ type: 'sqlite', path: db });
  await seed.nodes.create({ name: 'train-node' });
  await seed.ipPools.create({ name: 'train-pool', cidr: '10.99.0.0/16', blockSize: 26 });
  await seed.close();
  const conf = {
    cniVersion: '1.0.0', name: 'train-net', type: 'calico', nodename: 'train-node',
    datastore_type: 'sqlite', sqlite_path: db, ipam_lock_file: join(dir, 'ipam.lock'), ipam: { type: 'calico-ipam' },
  };
  let addResult;

  const script = new Script(Module.wrap(fs.readFileSync(bundle, 'utf8')), { filename: 'calico-ipam.cjs' });
  const run = script.runInThisContext();
  // The bundle's addon shim looks beside process.execPath, where the executable will be.
  const realExecPath = process.execPath;
  process.execPath = join(dist, 'calico-ipam');
  const realExit = process.exit;
  const realReadFileSync = fs.readFileSync;
  const realWriteSync = fs.writeSync;
  try {
    for (const verb of ['VERSION', 'ADD', 'CHECK', 'DEL']) {
      const env = { CNI_COMMAND: verb, CNI_CONTAINERID: 'train-1', CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni' };
      Object.assign(process.env, env);
      let answer = '';
      const exited = new Promise((resolve) => {
        process.exit = (code) => resolve(code ?? 0);
      });
      // CHECK is handed what ADD answered, as a runtime does.
      const netConf = JSON.stringify(verb === 'CHECK' ? { ...conf, prevResult: addResult } : conf);
      fs.readFileSync = (file, ...rest) => (file === 0 ? netConf : realReadFileSync(file, ...rest));
      fs.writeSync = (fd, data, ...rest) => {
        if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, ...rest);
        if (fd === 1) answer += String(data);
        return Buffer.byteLength(data);
      };
      const module = { exports: {} };
      run(module.exports, createRequire(bundle), module, 'calico-ipam.cjs', '.');
      const code = await exited;
      if (code !== 0) throw new Error(`training ${verb} failed with exit ${code}: ${answer}`);
      if (verb === 'ADD') addResult = JSON.parse(answer);
      // VERSION's answer depends on nothing but the build: the executable answers it from this asset.
      if (verb === 'VERSION') fs.writeFileSync(join(dist, 'sea', 'calico-ipam.version'), answer);
    }
  } finally {
    process.exit = realExit;
    fs.readFileSync = realReadFileSync;
    fs.writeSync = realWriteSync;
    process.execPath = realExecPath;
    for (const name of ['CNI_COMMAND', 'CNI_CONTAINERID', 'CNI_NETNS', 'CNI_IFNAME', 'CNI_PATH']) delete process.env[name];
  }
  fs.writeFileSync(cacheFile, script.createCachedData());
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
