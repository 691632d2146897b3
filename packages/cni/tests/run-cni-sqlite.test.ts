import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sqliteBackend } from './helpers/backend.js';
import { describeVerbScenarios } from './helpers/verb-scenarios.js';

// A directory where the SQLite file should be: opening it fails like an unreachable store.
describeVerbScenarios('SQLite', sqliteBackend, () => ({ datastore_type: 'sqlite', sqlite_path: tmpdir(), ipam_lock_file: join(tmpdir(), 'ipamkit-cni-unreachable.lock') }));
