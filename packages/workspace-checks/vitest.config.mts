import { packageVitestConfig } from '../../vitest.shared.mts';

// The temp-clone suites run nx, eslint, npm and changesets as child processes on a shared machine.
export default packageVitestConfig({ testTimeout: 240_000 });
