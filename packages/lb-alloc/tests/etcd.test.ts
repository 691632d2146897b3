import { createDatastore } from '@ipamkit/ipam-datastore';
import { withEtcd } from '@ipamkit/test-utils';
import { describe } from 'vitest';
import { useLbWorlds } from './harness.js';
import { allScenarios } from './scenarios/all-scenarios.js';

useLbWorlds();
const etcd = withEtcd();
let prefixes = 0;

describe('lb-alloc on a real etcd', () => {
  // A fresh key prefix per test: one etcd, isolated datastores.
  allScenarios(() => createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix: `/lb-${String(process.pid)}-${String(++prefixes)}` }));
});
