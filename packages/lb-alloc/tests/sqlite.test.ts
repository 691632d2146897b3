import { describe } from 'vitest';
import { sqliteDatastore, useLbWorlds } from './harness.js';
import { allScenarios } from './scenarios/all-scenarios.js';

useLbWorlds();

describe('lb-alloc on SQLite', () => {
  allScenarios(sqliteDatastore);
});
