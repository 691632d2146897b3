import { sqliteBackend } from './helpers/backend.js';
import { describeBinScenarios } from './helpers/bin-scenarios.js';

describeBinScenarios('SQLite', sqliteBackend);
