import * as nodeCrypto from 'node:crypto';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';
import { seaBuild } from '../../tools/sea/tsup-sea.mts';

/**
 * `node:crypto` costs several milliseconds to load, and our packages import it at their top level
 * for `createHash`, which a plugin call seldom reaches. In the bin builds it is replaced by a module
 * with the same export names whose getters load the real one on first use (design/cni.md,
 * "Start-up cost").
 */
const CRYPTO_EXPORTS = Object.keys(nodeCrypto).filter((name) => name !== 'default');
const lazyCrypto: Plugin = {
  name: 'calico-ipam-lazy-crypto',
  setup(build) {
    build.onResolve({ filter: /^(node:)?crypto$/ }, (args) =>
      args.namespace === 'lazy-builtin' ? { path: 'node:crypto', external: true } : { path: 'crypto', namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      loader: 'js',
      contents: `let real;
for (const name of ${JSON.stringify(CRYPTO_EXPORTS)}) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => (real ??= require('node:crypto'))[name] });
}`,
    }));
  },
};

/**
 * `import()` of a module left outside the bundle (e.g. `node:http`) becomes a `require`: a single
 * executable has no dynamic import at all, and in the `.cjs` bundle it would start Node's ES module
 * loader, which costs milliseconds.
 */
const REQUIRE_NOT_IMPORT = { 'dynamic-import': false };

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
      // Keep `node:` specifiers, so that lazyCrypto sees `node:crypto` too.
      removeNodeProtocol: false,
      esbuildPlugins: [lazyCrypto],
      esbuildOptions(options) {
        options.supported = { ...options.supported, ...REQUIRE_NOT_IMPORT };
      },
    },
  ),
  // The bundle inside the single executable (design/README.md, "Single executables";
  // tools/sea/build-sea.mjs turns it into dist/calico-ipam). Inside an executable `require` loads
  // only builtins: the clients a plugin call no longer needs (etcd3 with gRPC,
  // @kubernetes/client-node) stay out; their fallback paths fail with a clear error (etcd3 loads
  // from a node_modules reachable from the executable, if any).
  seaBuild(
    { 'calico-ipam': 'src/bin/calico-ipam.ts' },
    {
      executable: 'calico-ipam',
      fallback: 'dist/calico-ipam.cjs',
      leftOut: {
        etcd3: 'node_modules',
        '@kubernetes/client-node': { esModule: 'use a kubeconfig the built-in loader reads, or run dist/calico-ipam.cjs with node' },
      },
    },
    { esbuildPlugins: [lazyCrypto] },
  ),
]);
