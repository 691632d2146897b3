import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

// `counting-datastore` is built for the bench only: it is not in the package's `exports` map, so it
// is no part of the public surface (design/ipam-core.md, "Public surface").
export default defineConfig(
  libraryBuild({
    entry: { index: 'src/index.ts', 'counting-datastore': 'src/client/counting-datastore.ts' },
    dts: { entry: { index: 'src/index.ts' } },
  }),
);
