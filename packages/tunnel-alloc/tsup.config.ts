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
    // The long-running node-container process: start-up cost does not matter, so the workspace
    // packages stay external and the datastore backends load lazily as usual.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
