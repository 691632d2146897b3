'use strict';
// The main script of the calico-ipam single executable (design/cni.md, "Start-up cost"). The plugin
// bundle and a V8 code cache of it ride in the executable as assets; the cache was recorded after a
// training run of the bundle (scripts/train-code-cache.mjs), so it holds the bytecode of every
// function an ADD, CHECK, DEL or VERSION runs, not only of the top level: a call compiles almost
// nothing. A cache V8 refuses (another Node build) only costs the compile time back.
const { Buffer } = require('node:buffer');
const { getAsset } = require('node:sea');

// VERSION answers the same in every call of one build: the training run recorded the bundle's own
// answer, so the executable gives it without loading the bundle at all.
if (process.env.CNI_COMMAND === 'VERSION' && !process.argv.includes('-v') && process.env.IPAMKIT_SEA_CODE_CACHE_REPORT !== '1') {
  require('node:fs').writeSync(1, getAsset('calico-ipam.version', 'utf8'));
  process.exit(0);
}

const { wrap } = require('node:module');
const { Script } = require('node:vm');

const source = getAsset('calico-ipam.cjs', 'utf8');
const cachedData = Buffer.from(getAsset('calico-ipam.cache'));
const script = new Script(wrap(source), { filename: 'calico-ipam.cjs', cachedData, importModuleDynamically: undefined });
if (process.env.IPAMKIT_SEA_CODE_CACHE_REPORT === '1') {
  // Used by the build and the tests only: says whether V8 took the recorded cache.
  require('node:fs').writeSync(2, `code cache ${script.cachedDataRejected === true ? 'rejected' : 'accepted'}\n`);
}
const module_ = { exports: {} };
script.runInThisContext()(module_.exports, require, module_, 'calico-ipam.cjs', '.');
