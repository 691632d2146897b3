import { defineConfig } from 'tsup';

// The Kubernetes client is loaded from the consumer's install, never bundled.
const external = ['@kubernetes/client-node'];

export default defineConfig([
  {
    // `kubernetes` is a subpath export so that importing the library never loads the client.
    entry: { index: 'src/index.ts', kubernetes: 'src/cluster-view/kubernetes/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    external,
  },
  {
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    external,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
