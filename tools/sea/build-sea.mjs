// Builds the single executable of the package it runs in (design/README.md, "Single executables"):
// reads the package's sea.config.json, copies the SQLite addon beside the executable-to-be when the
// bundle can open SQLite, runs the package's own preparation step (cni records its code cache
// there), writes Node's SEA config and blob, injects the blob into a copy of this node with
// postject (twice when an aligned asset landed off its boundary the first time), and runs the
// result once as a smoke test. Needs a node binary with the SEA fuse. Run
// from the package directory: `node ../../tools/sea/build-sea.mjs`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { readSeaConfig } from './sea-config.mjs';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const require = createRequire(import.meta.url);
const root = process.cwd();
const config = readSeaConfig(root);
const dist = join(root, 'dist');
const work = join(dist, 'sea');
const target = join(dist, config.name);
const partial = `${target}.partial`;
const blob = join(work, `${config.name}.blob`);
const nodeConfig = join(work, 'sea-config.json');

const node = readFileSync(process.execPath);
if (!node.includes(FUSE)) throw new Error(`${process.execPath} has no single-executable fuse; build with a Node 20 release binary`);
mkdirSync(work, { recursive: true });

// The addon first: a preparation run loads it from beside the executable-to-be.
if (config.sqliteAddon) {
  const addon = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
  copyFileSync(addon, join(dist, 'better_sqlite3.node'));
}
if (config.prepare !== undefined) execFileSync(process.execPath, [resolve(root, config.prepare)], { stdio: ['ignore', 'ignore', 'inherit'] });

const assets = Object.fromEntries(Object.entries(config.assets).map(([key, file]) => [key, resolve(root, file)]));
writeFileSync(nodeConfig, JSON.stringify({
  main: resolve(root, config.main),
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: config.useCodeCache,
  ...(Object.keys(assets).length === 0 ? {} : { assets }),
}));

/** Writes the blob of the assets as they are now and injects it into a fresh copy of this node. */
async function makeExecutable() {
  execFileSync(process.execPath, ['--experimental-sea-config', nodeConfig], { stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(partial, { force: true });
  writeFileSync(partial, node);
  chmodSync(partial, 0o755);
  const { inject } = require('postject');
  await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE });
}

/**
 * Where an asset's bytes start in the executable, modulo `alignment`: the executable is mapped at a
 * page boundary, so this is its address modulo `alignment` too.
 */
function assetStartModulo(file, alignment) {
  const bytes = readFileSync(file);
  const image = readFileSync(partial);
  const at = image.indexOf(bytes);
  if (at < 0 || image.indexOf(bytes, at + 1) >= 0) throw new Error(`${file} is not found exactly once in ${partial}`);
  return at % alignment;
}

// An aligned asset (design/README.md, "Single executables"): its script writes it for a given start
// modulo `alignment`, at the same length, so a second blob puts it in the same place.
const { align } = config;
const writeAligned = (startMod) => execFileSync(process.execPath, [resolve(root, align.script), String(startMod)], { stdio: ['ignore', 'ignore', 'inherit'] });
if (align !== undefined) writeAligned(0);
await makeExecutable();
if (align !== undefined) {
  const file = assets[align.asset];
  if (file === undefined) throw new Error(`sea.config.json: align.asset ${align.asset} is not an asset`);
  const startMod = assetStartModulo(file, align.alignment);
  if (startMod !== 0) {
    writeAligned(startMod);
    await makeExecutable();
    if (assetStartModulo(file, align.alignment) !== startMod) throw new Error(`${align.asset} moved when it was written again for a start at ${startMod} modulo ${align.alignment}`);
  }
}
renameSync(partial, target);

// The executable must start: a broken bundle fails the build, not the first node it lands on.
const { check } = config;
const run = spawnSync(target, check.args, { env: check.env, stdio: ['ignore', 'pipe', 'pipe'] });
const stderr = run.stderr.toString();
if (run.status !== 0) throw new Error(`${target} ${check.args.join(' ')} exited with ${String(run.status ?? run.signal)}: ${stderr.trim()}`);
if (check.stderrIncludes !== undefined && !stderr.includes(check.stderrIncludes)) throw new Error(`${check.failure ?? `${target} did not say ${JSON.stringify(check.stderrIncludes)}`}: ${stderr.trim()}`);
console.log(`single executable: ${target}${config.sqliteAddon ? ' (+ better_sqlite3.node)' : ''}`);
