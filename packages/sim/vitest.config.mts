import { mergeConfig } from 'vitest/config';
import { packageVitestConfig } from '../../vitest.shared.mts';

// The sim tests run whole clusters and child processes on a shared 2-core machine: long timeouts.
// The hammer forks the built allocator and the bin tests run dist/bin.js, so dist is built first.
export default mergeConfig(packageVitestConfig({ testTimeout: 300_000 }), {
  test: { globalSetup: ['tests/helpers/build-dist.ts'], hookTimeout: 300_000 },
});
