import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { withEtcd } from '@ipamkit/test-utils';
import { etcdBackend } from './helpers/backend.js';
import { describeVerbScenarios } from './helpers/verb-scenarios.js';

const etcd = withEtcd();

// Port 9 (discard) on loopback: nothing listens there, so connections are refused at once.
describeVerbScenarios('a real etcd', () => etcdBackend(etcd.endpoint), () => ({
  datastore_type: 'etcdv3',
  etcd_endpoints: 'http://127.0.0.1:9',
  ipam_lock_file: join(tmpdir(), 'ipamkit-cni-unreachable.lock'),
}));
