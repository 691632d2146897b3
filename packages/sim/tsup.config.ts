import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

export default defineConfig([
  // import.meta.url locates the hammer worker and the calico-ipam bin, in the CJS build too.
  libraryBuild({ clean: false, shims: true }),
  // The `ipamkit-sim` bin, the hammer's allocator process and its Kubernetes API server process.
  // The test server stays external (resolved from the workspace when the all-callers hammer runs):
  // bundled, its CommonJS dependencies cannot be required from ESM.
  binBuild({ bin: 'src/bin.ts', 'hammer-worker': 'src/hammer/hammer-worker.ts', 'kube-api-process': 'src/hammer/kube-api-process.ts' }, { external: ['@ipamkit/test-utils'] }),
]);
