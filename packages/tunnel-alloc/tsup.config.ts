import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

export default defineConfig([
  libraryBuild({ clean: false }),
  // The long-running node-container process: start-up cost does not matter, so the workspace
  // packages stay external and the datastore backends load lazily as usual.
  binBuild({ bin: 'src/bin.ts' }, { sourcemap: false }),
]);
