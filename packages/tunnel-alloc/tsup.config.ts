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
    // The node-container process: an ESM file that loads the library from dist/index.js-equivalent
    // workspace packages; backends stay lazily imported by @ipamkit/ipam-datastore.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
