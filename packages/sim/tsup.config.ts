import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

export default defineConfig([
  // import.meta.url locates the hammer worker and the calico-ipam bin, in the CJS build too.
  libraryBuild({ clean: false, shims: true }),
  // The `ipamkit-sim` bin and the hammer's allocator process.
  binBuild({ bin: 'src/bin.ts', 'hammer-worker': 'src/hammer/hammer-worker.ts' }),
]);
