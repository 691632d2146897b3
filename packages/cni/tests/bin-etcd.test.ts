import { withEtcd } from '@ipamkit/test-utils';
import { etcdBackend } from './helpers/backend.js';
import { describeBinScenarios } from './helpers/bin-scenarios.js';

const etcd = withEtcd();

describeBinScenarios('a real etcd', () => etcdBackend(etcd.endpoint));
