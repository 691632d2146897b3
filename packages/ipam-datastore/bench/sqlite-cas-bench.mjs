// The SQLite half of the datastore bench: CAS writes per second on the built package.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSqliteDatastore } from '../dist/sqlite.js';

/** A /26 block as the core writes it: 64 ordinals and a nanosecond-seeded sequence number. */
function block(cidr) {
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

/** `count` CAS updates in a row, each at the revision the previous one returned. */
async function casLoop(ds, start, count) {
  let current = start;
  for (let i = 0; i < count; i++) {
    current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  }
}

/**
 * Serial: one datastore, one block. Concurrent: `writers` datastores (one connection each, as
 * separate CNI processes would have) on the same file, each CAS-looping on its own block.
 */
export async function benchSqliteCas({ serialWrites = 2_000, writers = 16, writesPerWriter = 250, synchronous = 'NORMAL' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-bench-'));
  const path = join(dir, 'ipam.db');
  const serial = createSqliteDatastore({ path, synchronous });
  const clients = Array.from({ length: writers }, () => createSqliteDatastore({ path, synchronous }));
  try {
    const first = await serial.blocks.create(block('10.0.0.0/26'));
    await casLoop(serial, first, 50);
    const t0 = performance.now();
    await casLoop(serial, await serial.blocks.get('10.0.0.0/26'), serialWrites);
    const serialMs = performance.now() - t0;

    const starts = await Promise.all(clients.map((ds, i) => ds.blocks.create(block(`10.1.${i}.0/26`))));
    const t1 = performance.now();
    await Promise.all(clients.map((ds, i) => casLoop(ds, starts[i], writesPerWriter)));
    const concurrentMs = performance.now() - t1;
    return {
      synchronous,
      serialWrites,
      serialCasPerSecond: (serialWrites / serialMs) * 1000,
      writers,
      concurrentWrites: writers * writesPerWriter,
      concurrentCasPerSecond: ((writers * writesPerWriter) / concurrentMs) * 1000,
    };
  } finally {
    await Promise.all([serial, ...clients].map((ds) => ds.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
