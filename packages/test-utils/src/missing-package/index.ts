import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a preload (`node --require <file>`) under which `pkg` is not installed: CommonJS `require`
 * and ES module `import` of it fail exactly as Node fails for a package missing from node_modules
 * (`MODULE_NOT_FOUND`, `ERR_MODULE_NOT_FOUND`), everything else resolves as usual. Lets a test run a
 * bin as a strict install without an optional peer would (design/test-utils.md, "Missing packages").
 */
export function writeMissingPackagePreload(dir: string, pkg: string): string {
  const file = join(dir, `without-${pkg.replaceAll(/[^a-z0-9]/gi, '_')}.cjs`);
  const esmHook = `export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(pkg)}) {
    const err = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  return next(specifier, context);
}`;
  writeFileSync(
    file,
    `'use strict';
const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === ${JSON.stringify(pkg)}) {
    const err = new Error("Cannot find module '" + request + "'");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolveFilename.call(this, request, ...rest);
};
Module.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(esmHook)}));
`,
  );
  return file;
}
