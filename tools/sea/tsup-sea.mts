import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import type { Options } from 'tsup';
import { packageVersionDefine } from '../../tsup.shared.mts';

// The bundle a single executable runs (design/README.md, "Single executables"): one CommonJS file
// with everything inside, since inside an executable `require` loads only builtins and there is no
// dynamic `import()` at all. tools/sea/build-sea.mjs turns it into the executable.

/**
 * A module left out of the bundle. `node_modules`: required at run time from a node_modules
 * reachable from the executable's directory (a checkout), else an error naming the package;
 * `{ esModule }`: always an error (an ES module cannot be loaded by a single executable), saying
 * what to do instead.
 */
export type LeftOut = 'node_modules' | { readonly esModule: string };

export interface SeaBundle {
  /** The executable's name, as error messages say it. */
  readonly executable: string;
  /** The bundle people run with their own node when they need what the executable leaves out. */
  readonly fallback: string;
  /** Modules not bundled, each with how its stand-in behaves. */
  readonly leftOut?: Readonly<Record<string, LeftOut>>;
}

const BINDINGS = fileURLToPath(new URL('./sea-bindings.cjs', import.meta.url));

/** The module that stands in for a client left out of the executable: a require from node_modules, or a clear error. */
function standIn(name: string, how: LeftOut, sea: SeaBundle): string {
  const why = `${name} is not inside the ${sea.executable} executable`;
  if (how !== 'node_modules') {
    return `module.exports = (() => {
  throw new Error(${JSON.stringify(`${why} (it is an ES module, which a single executable cannot load): ${how.esModule}`)});
})();`;
  }
  return `let loaded;
try {
  loaded = require('node:module').createRequire(process.execPath)(${JSON.stringify(name)});
} catch (err) {
  throw new Error(${JSON.stringify(`${why} and no node_modules beside it has it`)} + ' (' + (err instanceof Error ? err.message : String(err)) + '); run ${sea.fallback} with node for this datastore setting');
}
module.exports = loaded;`;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function leftOutPlugin(sea: SeaBundle): Plugin {
  const leftOut = sea.leftOut ?? {};
  const names = Object.keys(leftOut);
  return {
    name: `${sea.executable}-sea-unbundled`,
    setup(build) {
      if (names.length === 0) return;
      build.onResolve({ filter: new RegExp(`^(${names.map(escapeRegExp).join('|')})$`) }, (args) => ({ path: args.path, namespace: 'sea-unbundled' }));
      build.onLoad({ filter: /.*/, namespace: 'sea-unbundled' }, (args) => {
        const how = leftOut[args.path];
        if (how === undefined) throw new Error(`no stand-in for ${args.path}`);
        return { loader: 'js', contents: standIn(args.path, how, sea) };
      });
    },
  };
}

/**
 * The tsup build of `dist/sea/<entry>.cjs`: everything bundled but `leftOut`, better-sqlite3's
 * `bindings` replaced by tools/sea/sea-bindings.cjs (the addon beside the executable), `import()`
 * turned into `require`, minified. `overrides.esbuildPlugins` run after the stand-ins.
 */
export function seaBuild(entry: NonNullable<Options['entry']>, sea: SeaBundle, overrides: Options = {}): Options {
  const { esbuildPlugins = [], esbuildOptions, ...rest } = overrides;
  return {
    entry,
    outDir: 'dist/sea',
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    platform: 'node',
    clean: false,
    banner: {},
    noExternal: [/./],
    splitting: false,
    sourcemap: false,
    minify: true,
    // Keep `node:` specifiers: a plugin may want to see `node:crypto` (cni's lazy crypto).
    removeNodeProtocol: false,
    ...rest,
    // The package's version, as in every other build (tsup.shared.mts).
    define: { ...packageVersionDefine, ...rest.define },
    esbuildPlugins: [leftOutPlugin(sea), ...esbuildPlugins],
    esbuildOptions(options, context) {
      options.alias = { ...options.alias, bindings: BINDINGS };
      // A single executable has no dynamic import: `import()` of a module outside the bundle
      // (`node:http`) must become a `require`.
      options.supported = { ...options.supported, 'dynamic-import': false };
      esbuildOptions?.(options, context);
    },
  };
}

/**
 * The bundle of a package's `src/bin.ts` for its single executable `dist/<executable>`: everything
 * inside, @kubernetes/client-node included (an ES module, which esbuild converts to CommonJS), and
 * etcd3's gRPC client left out (its `.proto` files are read from disk at run time; the etcd
 * datastore's default JSON client needs none of it). Names are kept for readable errors.
 */
export function binSeaBuild(executable: string): Options {
  return seaBuild({ [executable]: 'src/bin.ts' }, { executable, fallback: 'dist/bin.js', leftOut: { etcd3: 'node_modules' } }, { keepNames: true });
}
