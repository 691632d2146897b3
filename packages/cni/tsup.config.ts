import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
  },
  {
    // The exec'd plugin: one CommonJS file with our own packages inlined, so a CNI call reads one
    // file instead of walking node_modules. The heavy clients stay external and are required only
    // by the backend the network config names (design/cni.md, "Start-up cost").
    entry: { 'calico-ipam': 'src/bin/calico-ipam.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    noExternal: [/^@ipamkit\//, 'ipaddr.js'],
    external: ['better-sqlite3', 'etcd3', '@kubernetes/client-node'],
    splitting: false,
    sourcemap: false,
    minify: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
