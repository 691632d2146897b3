import { beforeAll, describe, expect, it } from 'vitest';
import { withEtcd } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { assertDistIsFresh, runCasCounterChildren } from '../support/run-cas-children.js';
import { assertEtcdDistIsFresh } from './support/assert-etcd-dist-fresh.js';
import { ETCD_CLIENTS } from './support/etcd-clients.js';

const PROCESSES = 8;
const ITERATIONS = 200;
const CIDR = '10.0.0.0/26';

describe.each(ETCD_CLIENTS)('etcd shared by many processes (%s client)', (client) => {
  const etcd = withEtcd();
  beforeAll(() => {
    assertDistIsFresh();
    assertEtcdDistIsFresh();
  });

  it('loses no increment when 8 processes each CAS-increment one handle 200 times', { timeout: 300_000 }, async () => {
    const prefix = `/multi-process-${process.pid}-${client}`;
    const ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix });
    try {
      await ds.handles.create({ handleId: 'counter', block: { [CIDR]: 0 }, deleted: false });
      const results = await runCasCounterChildren({
        config: { type: 'etcd', endpoints: [etcd.endpoint], prefix, client },
        handleId: 'counter',
        cidr: CIDR,
        processes: PROCESSES,
        iterations: ITERATIONS,
        timeoutMs: 250_000,
      });
      expect(results.map((r) => [r.exitCode, r.stderr])).toEqual(results.map(() => [0, '']));
      const reported = results.map((r) => (JSON.parse(r.stdout) as { increments: number }).increments);
      expect(reported).toEqual(Array.from({ length: PROCESSES }, () => ITERATIONS));
      expect((await ds.handles.get('counter')).block[CIDR]).toBe(1_600);
    } finally {
      await ds.close();
    }
  });
});
