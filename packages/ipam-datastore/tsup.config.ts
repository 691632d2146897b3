import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per subpath export: a consumer of the root entry never loads a heavy client.
  entry: {
    index: 'src/index.ts',
    memory: 'src/memory/index.ts',
    sqlite: 'src/sqlite/index.ts',
    etcd: 'src/etcd/index.ts',
    kubernetes: 'src/kubernetes/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
