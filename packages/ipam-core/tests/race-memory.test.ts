import { memoryRaceBackend } from './race-backends.js';
import { describeRaceScenarios } from './race-scenarios.js';

// Issue 20 item 2: racing clients on one memory datastore.
describeRaceScenarios(memoryRaceBackend);
