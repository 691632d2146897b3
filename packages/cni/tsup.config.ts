import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

export default defineConfig([
  libraryBuild({ clean: false }),
  // The exec'd plugin: one CommonJS file with our own packages inlined, so a CNI call reads one
  // file instead of walking node_modules. The heavy clients stay external and are required only
  // by the backend the network config names (design/cni.md, "Start-up cost").
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
    },
  ),
]);
