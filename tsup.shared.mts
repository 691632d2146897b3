import { readFileSync } from 'node:fs';
import type { Options } from 'tsup';

// The build settings every package shares; each tsup.config.ts says only what is its own.

/**
 * The building package's version (tsup runs in its directory), compiled in as `__PACKAGE_VERSION__`
 * so no source repeats package.json's version; vitest.shared.mts defines the same for the tests.
 */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
export const packageVersionDefine = { __PACKAGE_VERSION__: JSON.stringify(version) };

// `node:` stays on built-in imports: without it vitest takes `timers/promises` for a path.
const common = { sourcemap: true, target: 'node20', platform: 'node', removeNodeProtocol: false, define: packageVersionDefine } satisfies Options;

/**
 * The published library: ESM + CJS + type declarations from `src/index.ts` (override `entry` for
 * subpath exports). A package that also builds a bin passes `clean: false`, so that neither build
 * deletes the other's output.
 */
export function libraryBuild(overrides: Options = {}): Options {
  return { entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, clean: true, ...common, ...overrides };
}

/** An executable beside the library: ESM with a shebang, run as `node dist/<name>.js` or through the bin link. */
export function binBuild(entry: Options['entry'], overrides: Options = {}): Options {
  return { entry, format: ['esm'], clean: false, banner: { js: '#!/usr/bin/env node' }, ...common, ...overrides };
}
