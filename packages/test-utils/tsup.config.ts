import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

// The contract suite registers tests with the caller's vitest instance; bundling it would not.
export default defineConfig(libraryBuild({ external: ['vitest'] }));
