import { packageVitestConfig } from '../../vitest.shared.mts';

export default packageVitestConfig();
