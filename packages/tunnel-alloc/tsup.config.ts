import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';
import { binSeaBuild } from '../../tools/sea/tsup-sea.mts';

export default defineConfig([
  libraryBuild({ clean: false }),
  // The long-running node-container process: start-up cost does not matter, so the workspace
  // packages stay external and the datastore backends load lazily as usual.
  binBuild({ bin: 'src/bin.ts' }, { sourcemap: false }),
  // dist/sea/ipamkit-tunnel-alloc.cjs, which tools/sea/build-sea.mjs makes the single executable dist/ipamkit-tunnel-alloc.
  binSeaBuild('ipamkit-tunnel-alloc'),
]);
