'use strict';
// A --require preload for the module-graph test: records the resolved path of every module the
// process loads through CommonJS (including require() of ES modules), written to the file named
// by IPAMKIT_MODULE_LOG when the process exits, and Node's own modules it loaded, as `node:<id>`
// (from process.moduleLoadList), and one `url:<n>` line: how many WHATWG URL and URLSearchParams
// objects the bundle itself constructed (the first costs a call about a millisecond of compiling),
// and one `tz:<n>` line: how many calls of Date's methods that set up the local time zone the
// process made (toISOString included: Node 20's V8 sets the zone up for it too; design/models.md,
// "ISO time without the time zone"). And `timer:` lines (below).
const Module = require('node:module');
const { writeFileSync } = require('node:fs');

const logFile = process.env.IPAMKIT_MODULE_LOG;
const seen = new Set();
const originalLoad = Module._load;
// And one `sql:<JSON text>` line per SQL statement the call prepared through better-sqlite3.
const statements = [];
Module._load = function recordingLoad(request, parent, isMain) {
  try {
    seen.add(Module._resolveFilename(request, parent, isMain));
  } catch {
    seen.add(request);
  }
  const loaded = originalLoad.apply(this, arguments);
  if (request === 'better-sqlite3' && typeof loaded?.prototype?.prepare === 'function' && loaded.prototype.prepare.recording !== true) {
    const prepare = loaded.prototype.prepare;
    loaded.prototype.prepare = function recordingPrepare(sql) {
      statements.push(String(sql));
      return prepare.apply(this, arguments);
    };
    loaded.prototype.prepare.recording = true;
  }
  return loaded;
};
let bundleUrls = 0;
// Taken before the `re:` recorder (below) wraps RegExp's methods: the recorder's own test is not the call's.
const BUNDLE_FRAME = /calico-ipam[^/\n]*\.cjs/;
// `exec` itself: `test` looks `exec` up on the expression, so it would meet the wrapper.
const execExpression = RegExp.prototype.exec;
const fromBundle = () => execExpression.call(BUNDLE_FRAME, new Error().stack ?? '') !== null;
for (const name of ['URL', 'URLSearchParams']) {
  const Native = globalThis[name];
  globalThis[name] = class extends Native {
    constructor(...args) {
      super(...args);
      if (fromBundle()) bundleUrls += 1;
    }
  };
}
let timeZoneCalls = 0;
const UTC_ONLY = new Set(['constructor', 'getTime', 'valueOf', 'setTime']);
for (const name of Object.getOwnPropertyNames(Date.prototype)) {
  const original = Date.prototype[name];
  if (UTC_ONLY.has(name) || name.includes('UTC') || typeof original !== 'function') continue;
  Date.prototype[name] = function countingTimeZone(...args) {
    timeZoneCalls += 1;
    return original.apply(this, args);
  };
}
// And one `re:<source>` line per regular expression run outside Node's own code (whose built-ins
// hold the original methods): each costs a fresh process its compilation (design/cni.md, "Start-up cost").
const expressionsRun = new Set();
for (const name of ['exec', 'test', Symbol.replace, Symbol.split, Symbol.match, Symbol.matchAll, Symbol.search]) {
  const original = RegExp.prototype[name];
  RegExp.prototype[name] = function recordingRun(...args) {
    expressionsRun.add(`${this.source}/${this.flags}`);
    return original.apply(this, args);
  };
}
// And one `timer:<name>:<n>` line per kind of Node timer the bundle armed, with how many: a fresh
// process's first timer compiles Node's timer lists (design/cni.md, "Deadline").
const timersArmed = new Map();
for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
  const original = globalThis[name];
  const recordingTimer = function (...args) {
    if (fromBundle()) timersArmed.set(name, (timersArmed.get(name) ?? 0) + 1);
    return original.apply(this, args);
  };
  Object.defineProperties(recordingTimer, Object.getOwnPropertyDescriptors(original));
  globalThis[name] = recordingTimer;
}
process.on('exit', () => {
  for (const [name, count] of timersArmed) seen.add(`timer:${name}:${count}`);
  for (const source of expressionsRun) seen.add(`re:${source}`);
  seen.add(`url:${bundleUrls}`);
  seen.add(`tz:${timeZoneCalls}`);
  for (const sql of statements) seen.add(`sql:${JSON.stringify(sql)}`);
  for (const file of Object.keys(require.cache)) seen.add(file);
  for (const entry of process.moduleLoadList) if (entry.startsWith('NativeModule ')) seen.add(`node:${entry.slice('NativeModule '.length)}`);
  if (logFile !== undefined) writeFileSync(logFile, [...seen].join('\n'));
});
