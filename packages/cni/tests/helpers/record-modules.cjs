'use strict';
// A --require preload for the module-graph test: records the resolved path of every module the
// process loads through CommonJS (including require() of ES modules), written to the file named
// by IPAMKIT_MODULE_LOG when the process exits, and Node's own modules it loaded, as `node:<id>`
// (from process.moduleLoadList).
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
process.on('exit', () => {
  for (const file of Object.keys(require.cache)) seen.add(file);
  for (const entry of process.moduleLoadList) if (entry.startsWith('NativeModule ')) seen.add(`node:${entry.slice('NativeModule '.length)}`);
  if (logFile !== undefined) writeFileSync(logFile, [...seen].join('\n'));
});
