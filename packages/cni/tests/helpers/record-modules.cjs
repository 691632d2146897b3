'use strict';
// A --require preload for the module-graph test: records the resolved path of every module the
// process loads through CommonJS (including require() of ES modules), written to the file named
// by IPAMKIT_MODULE_LOG when the process exits, and Node's own modules it loaded, as `node:<id>`
// (from process.moduleLoadList), and one `url:<n>` line: how many WHATWG URL and URLSearchParams
// objects the bundle itself constructed (the first costs a call about a millisecond of compiling).
const Module = require('node:module');
const { writeFileSync } = require('node:fs');

const logFile = process.env.IPAMKIT_MODULE_LOG;
const seen = new Set();
const originalLoad = Module._load;
Module._load = function recordingLoad(request, parent, isMain) {
  try {
    seen.add(Module._resolveFilename(request, parent, isMain));
  } catch {
    seen.add(request);
  }
  return originalLoad.apply(this, arguments);
};
let bundleUrls = 0;
const fromBundle = () => /calico-ipam[^/\n]*\.cjs/.test(new Error().stack ?? '');
for (const name of ['URL', 'URLSearchParams']) {
  const Native = globalThis[name];
  globalThis[name] = class extends Native {
    constructor(...args) {
      super(...args);
      if (fromBundle()) bundleUrls += 1;
    }
  };
}
process.on('exit', () => {
  seen.add(`url:${bundleUrls}`);
  for (const file of Object.keys(require.cache)) seen.add(file);
  for (const entry of process.moduleLoadList) if (entry.startsWith('NativeModule ')) seen.add(`node:${entry.slice('NativeModule '.length)}`);
  if (logFile !== undefined) writeFileSync(logFile, [...seen].join('\n'));
});
