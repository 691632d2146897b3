// Turns dist/sea/calico-ipam.cjs (the bundle tsup builds) into the single executable
// dist/calico-ipam, with a V8 code cache, and puts the SQLite addon beside it as
// dist/better_sqlite3.node (design/cni.md, "Start-up cost"). Needs a node binary with the SEA fuse.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const require = createRequire(import.meta.url);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const main = join(dist, 'sea', 'calico-ipam.cjs');
const blob = join(dist, 'sea', 'calico-ipam.blob');
const config = join(dist, 'sea', 'sea-config.json');
const target = join(dist, 'calico-ipam');
const partial = `${target}.partial`;

const node = readFileSync(process.execPath);
if (!node.includes(FUSE)) throw new Error(`${process.execPath} has no single-executable fuse; build with a Node 20 release binary`);

writeFileSync(config, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

rmSync(partial, { force: true });
writeFileSync(partial, node);
chmodSync(partial, 0o755);
const { inject } = require('postject');
await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE });
renameSync(partial, target);

const addon = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
copyFileSync(addon, join(dist, 'better_sqlite3.node'));
console.log(`single executable: ${target} (+ better_sqlite3.node)`);
