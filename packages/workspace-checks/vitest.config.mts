import { mergeConfig } from 'vitest/config';
import { packageVitestConfig } from '../../vitest.shared.mts';

// The suites spend their time waiting on child processes (git, nx, eslint, npm, changesets), so the
// files run side by side rather than one per core.
export default mergeConfig(packageVitestConfig({ testTimeout: 240_000 }), { test: { maxWorkers: 4 } });
