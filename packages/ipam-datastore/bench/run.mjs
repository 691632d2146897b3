// `npm run bench -w @ipamkit/ipam-datastore`: the physical CAS limits of each backend, on the
// built package (run the build first). Prints a human table and one JSON line for the root summary.
//
// etcd: uses ETCD_ENDPOINTS (first endpoint) when set, else starts a throwaway etcd through
// @ipamkit/test-utils; the etcd module's `benchEtcdCas` does the measuring. Without an etcd binary
// the etcd row says why it is missing.
import { benchSqliteCas } from './sqlite-cas-bench.mjs';

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const results = {};

for (const synchronous of ['NORMAL', 'FULL']) {
  const r = await benchSqliteCas({ synchronous });
  results[`sqlite-${synchronous.toLowerCase()}`] = r;
  console.log(
    `sqlite (synchronous=${synchronous}): serial ${fmt(r.serialCasPerSecond)} CAS/s over ${r.serialWrites} writes; ` +
      `${r.writers} concurrent writers ${fmt(r.concurrentCasPerSecond)} CAS/s over ${r.concurrentWrites} writes`,
  );
}

async function etcdEndpoint() {
  const fromEnv = (process.env.ETCD_ENDPOINTS ?? '').split(',').map((e) => e.trim()).find((e) => e !== '');
  if (fromEnv !== undefined) return { endpoint: fromEnv, stop: async () => {} };
  const { startEtcd } = await import('@ipamkit/test-utils');
  const etcd = await startEtcd();
  return { endpoint: etcd.endpoint, stop: () => etcd.stop() };
}

// The hook for the etcd half: dist/etcd.js exports benchEtcdCas(options) → EtcdBenchResult.
const etcdModule = await import('../dist/etcd.js');
if (typeof etcdModule.benchEtcdCas !== 'function') {
  results.etcd = { skipped: 'dist/etcd.js has no benchEtcdCas' };
  console.log('etcd: skipped (this build has no benchEtcdCas)');
} else {
  let target;
  try {
    target = await etcdEndpoint();
  } catch (err) {
    results.etcd = { skipped: String(err?.message ?? err) };
    console.log(`etcd: skipped (${results.etcd.skipped})`);
  }
  if (target !== undefined) {
    try {
      const r = await etcdModule.benchEtcdCas({ endpoint: target.endpoint });
      results.etcd = r;
      console.log(
        `etcd: serial ${fmt(r.serialCasPerSecond)} CAS/s over ${r.serialWrites} writes; ` +
          `${r.writers} concurrent writers ${fmt(r.concurrentCasPerSecond)} CAS/s over ${r.concurrentWrites} writes`,
      );
    } finally {
      await target.stop();
    }
  }
}

console.log(JSON.stringify({ bench: '@ipamkit/ipam-datastore', unit: 'CAS writes/s', results }));
