import { encodeV1, encodeV3, type Model, type WireKind } from '@ipamkit/models';
import { runDatastoreContract, type SoftDeletedRow } from '@ipamkit/test-utils';
import { startKubeHarness } from './kube-test-server.js';

const KIND: Record<SoftDeletedRow['kind'], WireKind> = { block: 'IPAMBlock', affinity: 'BlockAffinity', handle: 'IPAMHandle' };

runDatastoreContract(
  'kubernetes (crd.projectcalico.org/v1, API test server)',
  async () => {
    const harness = await startKubeHarness();
    return {
      datastore: harness.datastore,
      cleanup: () => harness.close(),
      // Written straight into the server, as a Calico client that died between soft and hard delete leaves it.
      injectSoftDeleted: (row) => {
        harness.server.inject(encodeV1(KIND[row.kind], row.value as Model) as unknown as Record<string, unknown>);
        return Promise.resolve();
      },
    };
  },
  { transact: false, paging: false, watchTimeoutMs: 20_000 },
);

runDatastoreContract(
  'kubernetes (projectcalico.org/v3, API test server)',
  async () => {
    const harness = await startKubeHarness({ apiGroup: 'projectcalico.org/v3' });
    return {
      datastore: harness.datastore,
      cleanup: () => harness.close(),
      injectSoftDeleted: (row) => {
        harness.server.inject(encodeV3(KIND[row.kind], row.value as Model) as unknown as Record<string, unknown>);
        return Promise.resolve();
      },
    };
  },
  { transact: false, paging: false, watchTimeoutMs: 20_000 },
);
