import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

// One config (not an array) so `clean` cannot race between builds. The design-sync and api-report bins
// are bundled beside the library; only the library gets type declarations.
export default defineConfig(
  libraryBuild({
    entry: { index: 'src/index.ts', 'design-sync': 'src/design-sync/cli.ts', 'api-report': 'src/api-report/cli.ts' },
    dts: { entry: { index: 'src/index.ts' } },
  }),
);
