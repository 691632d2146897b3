// The etcd half of the datastore bench: the physical CAS limits the core's allocation rate is
// measured against (design/toolchain.md#etcd has the baselines measured with raw etcd3 calls), on the
// built package.
import { performance } from 'node:perf_hooks';
import { createEtcdDatastore } from '../dist/etcd.js';
import { casLoop, emptyBlock } from './bench-blocks.mjs';

/**
 * Serial: `serialWrites` CAS updates of one empty /26 on a running etcd at `endpoint`. Concurrent:
 * `writers` clients, each CAS-looping `writesPerWriter` times on its own block. Writes under a fresh
 * key prefix and removes its blocks; `client` picks the etcd client (default: the datastore's, `http`).
 */
export async function benchEtcdCas({ endpoint, serialWrites = 1_000, writers = 16, writesPerWriter = 250, client }) {
  const prefix = `/ipamkit-bench-${process.pid}-${Date.now()}`;
  const open = () => createEtcdDatastore({ endpoints: [endpoint], prefix, ...(client === undefined ? {} : { client }) });
  const serial = open();
  const clients = Array.from({ length: writers }, open);
  try {
    await casLoop(serial, await serial.blocks.create(emptyBlock('10.0.0.0/26')), 20); // warm the connection
    const t0 = performance.now();
    await casLoop(serial, await serial.blocks.get('10.0.0.0/26'), serialWrites);
    const serialMs = performance.now() - t0;

    const warmed = await Promise.all(clients.map(async (ds, i) => casLoop(ds, await ds.blocks.create(emptyBlock(`10.1.${i}.0/26`)), 5)));
    const t1 = performance.now();
    await Promise.all(clients.map((ds, i) => casLoop(ds, warmed[i], writesPerWriter)));
    const concurrentMs = performance.now() - t1;

    await Promise.all((await serial.blocks.list()).map((b) => serial.blocks.delete(b)));
    return {
      serialWrites,
      serialCasPerSecond: (serialWrites / serialMs) * 1000,
      writers,
      concurrentWrites: writers * writesPerWriter,
      concurrentCasPerSecond: ((writers * writesPerWriter) / concurrentMs) * 1000,
    };
  } finally {
    await Promise.all([serial, ...clients].map((ds) => ds.close()));
  }
}
