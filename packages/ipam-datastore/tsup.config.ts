import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

export default defineConfig(
  libraryBuild({
    // One entry per subpath export: a consumer of the root entry never loads a heavy client.
    entry: {
      index: 'src/index.ts',
      memory: 'src/memory/index.ts',
      sqlite: 'src/sqlite/index.ts',
      etcd: 'src/etcd/index.ts',
      kubernetes: 'src/kubernetes/index.ts',
      kubeconfig: 'src/kubeconfig/index.ts',
    },
  }),
);
