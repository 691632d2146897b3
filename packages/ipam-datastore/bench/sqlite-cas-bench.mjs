// The SQLite half of the datastore bench: CAS writes per second on the built package.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSqliteDatastore } from '../dist/sqlite.js';
import { casLoop, emptyBlock, fullBlock } from './bench-blocks.mjs';

export const BLOCKS = { empty: emptyBlock, full: fullBlock };

/** A fresh directory under the OS temp dir: the ipam-core bench puts its files in the same place. */
export function benchDir(prefix = 'ipamkit-bench-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Serial: one datastore, one block, CAS-updated in a loop (the figure the core's allocation rate is
 * judged against). Concurrent (`writers` > 0): that many datastores (one connection each, as
 * separate CNI processes would have) on the same file, each CAS-looping on its own block.
 */
export async function benchSqliteCas({ serialWrites = 2_000, writers = 16, writesPerWriter = 250, synchronous = 'NORMAL', value = 'empty' } = {}) {
  const block = BLOCKS[value];
  const dir = benchDir();
  const path = join(dir, 'ipam.db');
  const serial = createSqliteDatastore({ path, synchronous });
  const clients = Array.from({ length: writers }, () => createSqliteDatastore({ path, synchronous }));
  try {
    const first = await serial.blocks.create(block('10.0.0.0/26'));
    await casLoop(serial, first, 50);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await casLoop(serial, await serial.blocks.get('10.0.0.0/26'), serialWrites);
    const serialMs = performance.now() - t0;
    const cpu = process.cpuUsage(c0);

    let concurrent = {};
    if (writers > 0) {
      const starts = await Promise.all(clients.map((ds, i) => ds.blocks.create(block(`10.1.${i}.0/26`))));
      const t1 = performance.now();
      await Promise.all(clients.map((ds, i) => casLoop(ds, starts[i], writesPerWriter)));
      const concurrentMs = performance.now() - t1;
      concurrent = { concurrentWrites: writers * writesPerWriter, concurrentCasPerSecond: ((writers * writesPerWriter) / concurrentMs) * 1000 };
    }
    return {
      synchronous,
      value,
      file: dir.startsWith(tmpdir()) ? 'os.tmpdir()' : dir,
      serialWrites,
      serialCasPerSecond: (serialWrites / serialMs) * 1000,
      serialCpuMicrosPerCas: (cpu.user + cpu.system) / serialWrites,
      writers,
      ...concurrent,
    };
  } finally {
    await Promise.all([serial, ...clients].map((ds) => ds.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
