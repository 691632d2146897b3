import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Datastore } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient } from '../src/index.js';
import { FakeClock } from '@ipamkit/test-utils';
import { assertConsistent, bare } from './client/fixtures.js';

// Several clients in one process, each on its own SQLite handle on the same file (an embedder
// running a controller beside the CLI, say): their transactions queue on the file's writer mutex
// instead of stalling the process in SQLite's busy wait (design/ipam-datastore.md, "One writer per
// file in a process").
describe('ipam-core clients on separate SQLite handles of one file in one process', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function openHandles(n: number): Promise<Datastore[]> {
    const dir = mkdtempSync(join(tmpdir(), 'ipam-core-sqlite-handles-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'ipam.db');
    const handles: Datastore[] = [];
    for (let i = 0; i < n; i += 1) {
      const ds = await createDatastore({ type: 'sqlite', path });
      cleanups.push(() => ds.close());
      handles.push(ds);
    }
    return handles;
  }

  for (const n of [2, 4]) {
    it(`gives ${n} concurrent autoAssign calls through ${n} handles ${n} distinct addresses`, async () => {
      const handles = await openHandles(n);
      const [setup] = handles;
      if (setup === undefined) throw new Error('no handle');
      await setup.ipPools.create({ name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 });
      for (let i = 0; i < n; i += 1) await setup.nodes.create({ name: `node-${i}` });

      const results = await Promise.all(
        handles.map((ds, i) =>
          createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false }).autoAssign({
            num4: 1,
            hostname: `node-${i}`,
            handleId: `pod-${i}`,
            intendedUse: 'Workload',
          }),
        ),
      );

      const addresses = results.flatMap((r) => (r.ipv4?.ips ?? []).map(bare));
      expect(addresses).toHaveLength(n);
      expect(new Set(addresses).size).toBe(n);
      expect(await assertConsistent(setup)).toEqual({ allocated: n, handles: n });
    });
  }
});
