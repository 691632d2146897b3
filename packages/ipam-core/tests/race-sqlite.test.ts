import { sqliteRaceBackend } from './race-backends.js';
import { describeRaceScenarios } from './race-scenarios.js';

// Issue 20 items 1–2: racing clients, each on its own `createDatastore` handle of one SQLite file
// in this process.
describeRaceScenarios(sqliteRaceBackend());
