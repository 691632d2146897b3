// Turns dist/sea/calico-ipam.cjs (the bundle tsup builds) into the single executable
// dist/calico-ipam and puts the SQLite addon beside it as dist/better_sqlite3.node (design/cni.md,
// "Start-up cost"): the executable's main is scripts/sea-loader.cjs, which runs the bundle from an
// asset with the V8 code cache scripts/train-code-cache.mjs recorded after a training run. Needs a
// node binary with the SEA fuse.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const require = createRequire(import.meta.url);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const bundle = join(dist, 'sea', 'calico-ipam.cjs');
const cache = join(dist, 'sea', 'calico-ipam.cache');
const loader = fileURLToPath(new URL('./sea-loader.cjs', import.meta.url));
const blob = join(dist, 'sea', 'calico-ipam.blob');
const config = join(dist, 'sea', 'sea-config.json');
const target = join(dist, 'calico-ipam');
const partial = `${target}.partial`;

const node = readFileSync(process.execPath);
if (!node.includes(FUSE)) throw new Error(`${process.execPath} has no single-executable fuse; build with a Node 20 release binary`);

// The addon first: the training run loads it from beside the executable-to-be.
const addon = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
copyFileSync(addon, join(dist, 'better_sqlite3.node'));
execFileSync(process.execPath, [fileURLToPath(new URL('./train-code-cache.mjs', import.meta.url))], { stdio: ['ignore', 'ignore', 'inherit'] });

writeFileSync(config, JSON.stringify({
  main: loader,
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets: { 'calico-ipam.cjs': bundle, 'calico-ipam.cache': cache, 'calico-ipam.version': join(dist, 'sea', 'calico-ipam.version') },
}));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

rmSync(partial, { force: true });
writeFileSync(partial, node);
chmodSync(partial, 0o755);
const { inject } = require('postject');
await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE });
renameSync(partial, target);

// A cache V8 refuses would make every call compile the whole bundle again: fail the build instead.
const report = spawnSync(target, [], { env: { IPAMKIT_SEA_CODE_CACHE_REPORT: '1', CNI_COMMAND: 'VERSION' }, stdio: ['ignore', 'ignore', 'pipe'] }).stderr.toString();
if (!report.includes('code cache accepted')) throw new Error(`the single executable does not take its code cache: ${report.trim()}`);
console.log(`single executable: ${target} (+ better_sqlite3.node)`);
