import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';
import { binSeaBuild } from '../../tools/sea/tsup-sea.mts';

export default defineConfig([
  libraryBuild({ clean: false }),
  // The `ipamkit` bin.
  binBuild({ bin: 'src/bin.ts' }),
  // dist/sea/ipamkit.cjs, which tools/sea/build-sea.mjs makes the single executable dist/ipamkit.
  binSeaBuild('ipamkit'),
]);
