import * as nodeCrypto from 'node:crypto';
import * as nodeOs from 'node:os';
import * as nodeTimersPromises from 'node:timers/promises';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';
import { seaBuild } from '../../tools/sea/tsup-sea.mts';

/**
 * Builtins our packages import at their top level but a plugin call seldom uses: `node:crypto`
 * (several milliseconds to load; `createHash` for long names), `node:os` (the host name when the
 * config names no node) and `node:timers/promises` (a retry's sleep). In the bin builds each is
 * replaced by an ES module with one function per function-valued export of the real module, which
 * loads the real one on its first call (design/cni.md, "Start-up cost"). Being an ES module, only
 * the functions the bundle imports are kept, and no getter is made per export when the module
 * loads (a CommonJS stand-in with getters was copied, getter by getter, into every importing
 * module: some 600 closures per call). Only functions can be stood in for: importing a
 * non-function export (`EOL`, `constants`) of these modules fails the build, and a class export
 * would not be the real class.
 */
const LAZY_BUILTINS: Record<string, readonly string[]> = {
  crypto: functionExports(nodeCrypto),
  os: functionExports(nodeOs),
  'timers/promises': functionExports(nodeTimersPromises),
};
function functionExports(module: Record<string, unknown>): string[] {
  return Object.keys(module).filter((name) => name !== 'default' && typeof module[name] === 'function');
}
const lazyBuiltins: Plugin = {
  name: 'calico-ipam-lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(crypto|os|timers\/promises)$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      return args.namespace === 'lazy-builtin' ? { path: `node:${name}`, external: true } : { path: name, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      loader: 'js',
      contents: [
        `let real;`,
        `const load = () => (real ??= require(${JSON.stringify(`node:${args.path}`)}));`,
        ...(LAZY_BUILTINS[args.path] ?? []).map((name) => `export function ${name}(...args) { return load().${name}(...args); }`),
      ].join('\n'),
    }));
  },
};

/**
 * ipaddr.js builds its regular expressions and classes when it loads (a few hundred microseconds of
 * a call), and models reads IPv6 text with it; an IPv4-only call never does. In the bin builds the
 * package is replaced by a stand-in whose `IPv4` and `IPv6` load the real one on first use
 * (design/cni.md, "Start-up cost"). Only the default export's two classes are offered: any other
 * import of the package fails the build.
 */
const lazyIpaddr: Plugin = {
  name: 'calico-ipam-lazy-ipaddr',
  setup(build) {
    build.onResolve({ filter: /^ipaddr\.js$/ }, (args) => (args.namespace === 'lazy-ipaddr' ? undefined : { path: 'ipaddr.js', namespace: 'lazy-ipaddr' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-ipaddr' }, () => ({
      loader: 'js',
      resolveDir: process.cwd(),
      contents: [
        `let real;`,
        `const load = () => (real ??= require('ipaddr.js'));`,
        `export default { get IPv4() { return load().IPv4; }, get IPv6() { return load().IPv6; } };`,
      ].join('\n'),
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
      // Keep `node:` specifiers, so that lazyBuiltins sees `node:` specifiers too.
      removeNodeProtocol: false,
      esbuildPlugins: [lazyBuiltins, lazyIpaddr],
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
    { 'calico-ipam': 'src/bin/calico-ipam-sea.ts' },
    {
      executable: 'calico-ipam',
      fallback: 'dist/calico-ipam.cjs',
      leftOut: {
        etcd3: 'node_modules',
        '@kubernetes/client-node': { esModule: 'use a kubeconfig the built-in loader reads, or run dist/calico-ipam.cjs with node' },
      },
    },
    { esbuildPlugins: [lazyBuiltins, lazyIpaddr] },
  ),
]);
