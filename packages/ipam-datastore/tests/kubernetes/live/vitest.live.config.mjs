import { packageVitestConfig } from '../../../../../vitest.shared.mts';

// Only the opt-in run against a real cluster (`npm run test:live`); never part of `npm test`.
export default packageVitestConfig({ include: ['tests/kubernetes/live/**/*.live.ts'], testTimeout: 120_000 });
