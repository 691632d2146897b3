'use strict';
// Stands in for the `bindings` package inside every single executable (design/README.md, "Single
// executables"): better-sqlite3 asks for its addon by file name, and the addon ships beside the
// executable, not in a node_modules tree.
const { dirname, join } = require('node:path');

module.exports = function bindings(name) {
  const file = join(dirname(process.execPath), name);
  const addon = { exports: {} };
  try {
    process.dlopen(addon, file);
  } catch (err) {
    throw new Error(`cannot load the SQLite addon ${file}: install it beside ${process.execPath} (${err instanceof Error ? err.message : String(err)})`);
  }
  return addon.exports;
};
