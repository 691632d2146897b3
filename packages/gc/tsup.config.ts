import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../tsup.shared.mts';
import { binSeaBuild } from '../../tools/sea/tsup-sea.mts';

// The Kubernetes client is loaded from the consumer's install, never bundled.
const external = ['@kubernetes/client-node'];

export default defineConfig([
  // `kubernetes` is a subpath export so that importing the library never loads the client.
  libraryBuild({ entry: { index: 'src/index.ts', kubernetes: 'src/cluster-view/kubernetes/index.ts' }, clean: false, external }),
  binBuild({ bin: 'src/bin.ts' }, { external }),
  // dist/sea/ipamkit-gc.cjs, which tools/sea/build-sea.mjs makes the single executable dist/ipamkit-gc.
  binSeaBuild('ipamkit-gc'),
]);
