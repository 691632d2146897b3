import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const define = { __CALICO_IPAM_VERSION__: JSON.stringify(version) };

/**
 * Inside a single executable `require` loads only builtins. The clients a plugin call no longer
 * needs (etcd3 with gRPC, @kubernetes/client-node) are not bundled into it; their fallback paths
 * load them from a node_modules beside the executable, if there is one, or fail with a clear error.
 */
const notInsideTheExecutable: Plugin = {
  name: 'calico-ipam-sea-unbundled',
  setup(build) {
    build.onResolve({ filter: /^(etcd3|@kubernetes\/client-node)$/ }, (args) => ({ path: args.path, namespace: 'sea-unbundled' }));
    build.onLoad({ filter: /.*/, namespace: 'sea-unbundled' }, (args) => ({
      loader: 'js',
      contents: `const name = ${JSON.stringify(args.path)};
let loaded;
try {
  loaded = require('node:module').createRequire(process.execPath)(name);
} catch (err) {
  throw new Error(name + ' is not inside the calico-ipam executable and no node_modules beside it has it (' + (err instanceof Error ? err.message : String(err)) + '); run dist/calico-ipam.cjs with node for this datastore setting');
}
module.exports = loaded;`,
    }));
  },
};

export default defineConfig([
  libraryBuild({ clean: false }),
  // The exec'd plugin for people who run it with their own node: one CommonJS file with our own
  // packages inlined, so a CNI call reads one file instead of walking node_modules. The native and
  // heavy clients stay external and are required only by the backend the network config names
  // (design/cni.md, "Start-up cost").
  binBuild(
    { 'calico-ipam': 'src/bin/calico-ipam.ts' },
    {
      format: ['cjs'],
      outExtension: () => ({ js: '.cjs' }),
      noExternal: [/^@ipamkit\//, 'ipaddr.js'],
      external: ['better-sqlite3', 'etcd3', '@kubernetes/client-node'],
      splitting: false,
      sourcemap: false,
      minify: true,
      define,
    },
  ),
  // The main script of the single executable (scripts/build-sea.mjs turns it into dist/calico-ipam):
  // everything bundled, better-sqlite3's `bindings` replaced by a loader of the addon beside the
  // executable.
  binBuild(
    { 'calico-ipam': 'src/bin/calico-ipam.ts' },
    {
      outDir: 'dist/sea',
      format: ['cjs'],
      outExtension: () => ({ js: '.cjs' }),
      banner: {},
      noExternal: [/./],
      splitting: false,
      sourcemap: false,
      minify: true,
      define,
      esbuildPlugins: [notInsideTheExecutable],
      esbuildOptions(options) {
        options.alias = { bindings: './scripts/sea-bindings.cjs' };
      },
    },
  ),
]);
