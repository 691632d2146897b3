'use strict';
// The main script of the calico-ipam single executable (design/cni.md, "Start-up cost"). The plugin
// bundle and V8 code caches of it ride in the executable as assets; each cache was recorded after a
// training run of the bundle on one datastore and one verb (scripts/train-code-cache.mjs), so it
// holds the bytecode of every function an ADD (or a DEL) on that datastore runs, not only of the
// top level: a call compiles almost nothing, and deserialises only its own datastore's and verb's
// functions (CHECK and the other commands take the ADD's). A cache V8 refuses (another Node build),
// or the cache of another datastore, only costs compile time.
const { Buffer } = require('node:buffer');
const fs = require('node:fs');
const { getAsset } = require('node:sea');

const command = process.env.CNI_COMMAND ?? '';
const askedVersionFlag = process.argv.includes('-v');
const report = process.env.IPAMKIT_SEA_CODE_CACHE_REPORT === '1';

// VERSION answers the same in every call of one build: the training run recorded the bundle's own
// answer, so the executable gives it without loading the bundle at all.
if (command === 'VERSION' && !askedVersionFlag && !report) {
  fs.writeSync(1, getAsset('calico-ipam.version', 'utf8'));
  process.exit(0);
}

/**
 * All of standard input, read with `readSync` into one buffer that grows as needed: `readFileSync`
 * would first compile its own helpers (a stat, buffers of unknown length, their concatenation),
 * about a tenth of a millisecond of a call (design/cni.md, "Start-up cost").
 */
function readStdin() {
  let buffer = Buffer.allocUnsafe(16384);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const read = fs.readSync(0, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.toString('utf8', 0, length);
    length += read;
  }
}

// The plugin reads all of stdin for every command but VERSION: read it here, once, to see which
// datastore the config names; a read error is the plugin's to report.
let stdin;
let stdinError;
if (command !== '' && command !== 'VERSION' && !askedVersionFlag) {
  try {
    stdin = readStdin();
  } catch (err) {
    stdinError = err;
  }
}

/**
 * The datastore whose cache to take, guessed as the plugin resolves it (the config's
 * `datastore_type`, then `DATASTORE_TYPE`, then etcd when etcd endpoints are given, else
 * Kubernetes). Only a guess: the plugin itself decides, and validates the config.
 */
function datastoreOf(text, env) {
  let conf;
  try {
    conf = JSON.parse(text ?? '');
  } catch {
    conf = undefined;
  }
  const field = (name) => (conf !== null && typeof conf === 'object' && typeof conf[name] === 'string' ? conf[name] : '');
  const type = field('datastore_type') || env.DATASTORE_TYPE || '';
  if (type === 'sqlite') return 'sqlite';
  if (type === 'etcdv3') return 'etcd';
  if (type === '' && (field('etcd_endpoints') || field('etcd_authority') || env.ETCD_ENDPOINTS || env.ETCD_AUTHORITY)) return 'etcd';
  return 'kubernetes';
}

const { Script } = require('node:vm');

// The DEL's cache holds the release path and not the assignment's: V8 deserialises a cache at about
// 7 µs per kilobyte, and each verb's cache is 5 to 15 % smaller than one cache of both.
const cacheName = `calico-ipam.${datastoreOf(stdin, process.env)}.${command === 'DEL' ? 'del' : 'add'}.cache`;
// The assets as the executable holds them, not copies (`getRawAsset`, Node 20.12 and later): V8
// only reads the cache, and the bundle is ASCII (esbuild escapes the rest), so a Latin-1 decode of
// the raw bytes is the one copy the source needs. The asset is the bundle already inside CommonJS's
// function wrapper (scripts/train-code-cache.mjs): wrapped here, it would be a concatenation V8
// copies whole again into one flat string before it looks the cache up.
const sea = require('node:sea');
const raw = (name) => (typeof sea.getRawAsset === 'function' ? sea.getRawAsset(name) : getAsset(name));
const source = Buffer.from(raw('calico-ipam.wrapped.cjs')).toString('latin1');
/**
 * The cache, as a view of the pack the executable carries (scripts/pack-code-caches.mjs): each
 * cache in it starts on an 8-byte boundary of memory, where V8 reads it in place; it copies one
 * that does not before reading it (design/cni.md, "Caches on 8-byte boundaries").
 */
function cacheFromPack(pack, name) {
  const bytes = Buffer.from(pack);
  if (bytes.toString('latin1', 0, 4) !== 'IPKC') return undefined;
  const entry = JSON.parse(bytes.toString('latin1', 8, 8 + bytes.readUInt32LE(4)))[name];
  return Array.isArray(entry) ? Buffer.from(pack, entry[0], entry[1]) : undefined;
}
const cachedData = cacheFromPack(raw('calico-ipam.caches'), cacheName);
const script = new Script(source, { filename: 'calico-ipam.cjs', ...(cachedData === undefined ? {} : { cachedData }), importModuleDynamically: undefined });
if (report) {
  // Used by the build and the tests only: says which cache was taken and whether V8 accepted it.
  fs.writeSync(2, `code cache ${cachedData === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'accepted'} (${cacheName})\n`);
}
// A plugin call runs each function a few times and exits: optimizing compilation (TurboFan) of a
// function that got hot in an ADD only runs on a background thread that the exit then has to wait
// for (10–20 ms of an ADD). Nor does it need the young generation collected ahead of time: V8
// schedules a scavenge as a task once the new space is 80 % full, which a Kubernetes call reached
// while it waited for the API server, and ran on the main thread for 1–7 ms; without the task V8
// collects only when the new space is full, which a call does not reach. And a regular expression
// is compiled once, to machine code, on its first use: by default V8 first compiles it for its
// regexp interpreter and compiles it again on its second use, and a Kubernetes call runs over
// thirty of them a few times each (design/cni.md, "Start-up cost"). Set after the Script took the
// cache: V8 checks a cache against the flags.
// Through the binding: `node:v8` loads streams for its heap snapshots (about 5 ms). The binding's
// deprecation warning is not the plugin's to print; without the binding the call only runs slower.
const CALL_FLAGS = '--max-opt=0 --no-minor-gc-task --no-regexp-tier-up';
const warnings = process.noDeprecation;
try {
  process.noDeprecation = true;
  process.binding('v8').setFlagsFromString(CALL_FLAGS);
  if (report) fs.writeSync(2, `v8 flags set: ${CALL_FLAGS}\n`);
} catch {
  // Not offered by this Node: optimizing compilation stays on.
} finally {
  process.noDeprecation = warnings;
}
const module_ = { exports: {} };
script.runInThisContext()(module_.exports, require, module_, 'calico-ipam.cjs', '.');
module_.exports.pluginMain(() => {
  if (stdinError !== undefined) throw stdinError;
  return stdin ?? readStdin();
});
