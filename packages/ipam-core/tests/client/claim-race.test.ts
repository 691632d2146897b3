import { describe, expect, it } from 'vitest';
import { createIpamClient } from '../../src/index.js';
import { blockSearchStart } from '../../src/client/block-generators.js';
import { assertConsistent, BACKENDS, bare, strictConfig, useBackends, world } from './fixtures.js';

useBackends();

/** Two host names whose seeded block search starts at the same block of a two-block pool. */
function collidingHosts(): [string, string] {
  const byStart = new Map<bigint, string>();
  for (let i = 0; ; i += 1) {
    const host = `racer-${i}`;
    const start = blockSearchStart('10.0.0.0/25', 26, host, () => 0n);
    const other = byStart.get(start);
    if (other !== undefined) return [other, host];
    byStart.set(start, host);
  }
}

describe.each(BACKENDS)('two hosts racing for the same free block on $name', (backend) => {
  it('confirms exactly one owner per block; the loser claims the other block', async () => {
    const [h1, h2] = collidingHosts();
    const { ds, clock } = await world(backend, {
      pools: [{ name: 'p', cidr: '10.0.0.0/25', blockSize: 26 }],
      nodes: [{ name: h1 }, { name: h2 }],
      config: strictConfig,
    });
    // Separate clients, as separate processes would be.
    const a = createIpamClient({ datastore: ds, clock, windowsHost: false });
    const b = createIpamClient({ datastore: ds, clock, windowsHost: false });
    const [ra, rb] = await Promise.all([
      a.autoAssign({ num4: 2, hostname: h1, handleId: 'a', intendedUse: 'Workload' }),
      b.autoAssign({ num4: 2, hostname: h2, handleId: 'b', intendedUse: 'Workload' }),
    ]);
    const ips = [...(ra.ipv4?.ips ?? []), ...(rb.ipv4?.ips ?? [])].map(bare);
    expect(ips).toHaveLength(4);
    expect(new Set(ips).size).toBe(4);
    const affinities = await ds.affinities.list();
    expect(affinities.map((x) => x.state)).toEqual(['confirmed', 'confirmed']);
    expect(new Set(affinities.map((x) => x.host))).toEqual(new Set([h1, h2]));
    expect(new Set(affinities.map((x) => x.cidr))).toEqual(new Set(['10.0.0.0/26', '10.0.0.64/26']));
    for (const block of await ds.blocks.list()) {
      const owner = affinities.find((x) => x.cidr === block.cidr);
      expect(block.affinity).toEqual({ type: 'host', host: owner?.host });
    }
    expect(await assertConsistent(ds)).toEqual({ allocated: 4, handles: 2 });
  });
});
