import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';

export default defineConfig([
  libraryBuild({ clean: false }),
  // The `ipamkit` bin.
  binBuild({ bin: 'src/bin.ts' }),
]);
