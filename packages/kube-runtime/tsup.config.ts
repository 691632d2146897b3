import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

// `kubernetes` is a subpath export so that importing the runner, logger or metrics server never loads
// the Kubernetes client; the client is loaded from the consumer's install, never bundled.
export default defineConfig(libraryBuild({ entry: { index: 'src/index.ts', kubernetes: 'src/kubernetes/index.ts' }, external: ['@kubernetes/client-node'] }));
