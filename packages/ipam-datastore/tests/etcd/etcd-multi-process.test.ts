import { beforeAll, describe, it } from 'vitest';
import { withEtcd } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { assertDistIsFresh, expectNoLostIncrement } from '../support/run-cas-children.js';
import { assertEtcdDistIsFresh } from './support/assert-etcd-dist-fresh.js';
import { ETCD_CLIENTS } from './support/etcd-clients.js';

describe.each(ETCD_CLIENTS)('etcd shared by many processes (%s client)', (client) => {
  const etcd = withEtcd();
  beforeAll(() => {
    assertDistIsFresh();
    assertEtcdDistIsFresh();
  });

  it('loses no increment when 8 processes each CAS-increment one handle 200 times', { timeout: 300_000 }, async () => {
    const prefix = `/multi-process-${process.pid}-${client}`;
    const ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix });
    await expectNoLostIncrement(ds, { type: 'etcd', endpoints: [etcd.endpoint], prefix, client }, 250_000);
  });
});
