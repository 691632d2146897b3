import type { AllocationBlock, Datastore, Versioned } from '@ipamkit/models';
import { createEtcdDatastore } from './etcd-datastore.js';

export interface EtcdBenchOptions {
  /** A running etcd; the bench writes under a fresh key prefix and removes nothing else. */
  readonly endpoint: string;
  /** Serial CAS updates of one block (default 1 000). */
  readonly serialWrites?: number;
  /** Concurrent writers, each with its own client and its own block (default 16). */
  readonly writers?: number;
  /** CAS updates per concurrent writer (default 250). */
  readonly writesPerWriter?: number;
  /** Which etcd client (default: the datastore's default, `http`). */
  readonly client?: 'http' | 'grpc';
}

export interface EtcdBenchResult {
  readonly serialWrites: number;
  readonly serialCasPerSecond: number;
  readonly writers: number;
  readonly concurrentWrites: number;
  readonly concurrentCasPerSecond: number;
}

function block(cidr: string): AllocationBlock {
  // A /26 like the core writes: 64 ordinals, so the value is realistically sized.
  return {
    cidr,
    affinity: { type: 'host', host: 'bench-node' },
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 64 }, (_, i) => i),
    attributes: [],
    sequenceNumber: 1_779_000_000_000_000_000n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/** `count` CAS updates in a row, each using the revision the previous one returned. */
async function casLoop(ds: Datastore, start: Versioned<AllocationBlock>, count: number): Promise<void> {
  let current = start;
  for (let i = 0; i < count; i++) {
    current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  }
}

/**
 * The etcd half of the datastore bench: the physical CAS limits the core's allocation rate is
 * measured against (design/toolchain.md#etcd has the baselines measured with raw etcd3 calls).
 */
export async function benchEtcdCas(options: EtcdBenchOptions): Promise<EtcdBenchResult> {
  const serialWrites = options.serialWrites ?? 1_000;
  const writers = options.writers ?? 16;
  const writesPerWriter = options.writesPerWriter ?? 250;
  const prefix = `/ipamkit-bench-${process.pid}-${Date.now()}`;
  const open = (): Datastore => createEtcdDatastore({ endpoints: [options.endpoint], prefix, ...(options.client === undefined ? {} : { client: options.client }) });

  const serial = open();
  const clients = Array.from({ length: writers }, open);
  try {
    const first = await serial.blocks.create(block('10.0.0.0/26'));
    await casLoop(serial, first, 20); // warm the connection
    const t0 = performance.now();
    await casLoop(serial, await serial.blocks.get('10.0.0.0/26'), serialWrites);
    const serialMs = performance.now() - t0;

    const starts = await Promise.all(clients.map((ds, i) => ds.blocks.create(block(`10.1.${i}.0/26`))));
    await Promise.all(clients.map((ds, i) => casLoop(ds, starts[i] ?? never(), 5)));
    const fresh = await Promise.all(clients.map((ds, i) => ds.blocks.get(`10.1.${i}.0/26`)));
    const t1 = performance.now();
    await Promise.all(clients.map((ds, i) => casLoop(ds, fresh[i] ?? never(), writesPerWriter)));
    const concurrentMs = performance.now() - t1;

    await serial.blocks.list().then((all) => Promise.all(all.map((b) => serial.blocks.delete(b))));
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

function never(): never {
  throw new Error('bench: missing writer state');
}

export function formatEtcdBench(r: EtcdBenchResult): string {
  return [
    `etcd  serial single-object CAS: ${r.serialCasPerSecond.toFixed(0)} writes/s (${r.serialWrites} writes)`,
    `etcd  ${r.writers} concurrent writers, distinct objects: ${r.concurrentCasPerSecond.toFixed(0)} writes/s (${r.concurrentWrites} writes)`,
  ].join('\n');
}
