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
    // The bin is ESM only; it loads the Kubernetes client lazily, so the library entry stays light.
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
