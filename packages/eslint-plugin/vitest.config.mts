import { packageVitestConfig } from '../../vitest.shared.mts';

export default packageVitestConfig({ testTimeout: 60_000 });
