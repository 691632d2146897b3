import { defineConfig } from 'tsup';

// One config (not an array) so `clean` cannot race between builds. The design-sync bin is bundled
// beside the library; only the library gets type declarations.
export default defineConfig({
  entry: { index: 'src/index.ts', 'design-sync': 'src/design-sync/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
