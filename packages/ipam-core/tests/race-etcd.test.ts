import { etcdRaceBackend } from './race-backends.js';
import { describeRaceScenarios } from './race-scenarios.js';

// Issue 20 item 2: racing clients, each on its own datastore handle (client connection) of a real etcd.
describeRaceScenarios(etcdRaceBackend());
