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
    // import.meta.url locates the hammer worker and the calico-ipam bin, in the CJS build too.
    shims: true,
  },
  {
    // The `ipamkit-sim` bin and the hammer's allocator process: ESM, run as `node dist/<name>.js`.
    entry: { bin: 'src/bin.ts', 'hammer-worker': 'src/hammer/hammer-worker.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
