import type { AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { CorruptBlockError } from '../../src/index.js';
import { BACKENDS, bare, strictConfig, useBackends, world } from './fixtures.js';

useBackends();

// Calico's own test objects hold /26 blocks whose allocations array has 0 or 1 entries. Such a
// block is kept as stored and never allocated from; what it records can still be released.

/** node-a's affine /26 at 10.0.0.0 whose allocations array records only ordinal 0 (handle `old`). */
function shortBlock(): AllocationBlock {
  return {
    cidr: '10.0.0.0/26',
    affinity: { type: 'host', host: 'node-a' },
    affinityClaimTime: '2026-08-22T12:00:00Z',
    allocations: [0],
    unallocated: Array.from({ length: 63 }, (_, i) => i + 1),
    attributes: [{ handleId: 'old', activeOwnerAttrs: { namespace: 'default', pod: 'old-0' } }],
    sequenceNumber: 5n,
    sequenceNumberForAllocation: { '0': 4n },
    deleted: false,
  };
}

describe.each(BACKENDS)('blocks with a short allocations array on $name', (backend) => {
  async function seeded(config = strictConfig): Promise<Awaited<ReturnType<typeof world>>> {
    const w = await world(backend, { pools: [{ name: 'p', cidr: '10.0.0.0/25', blockSize: 26 }], nodes: [{ name: 'node-a' }], config });
    await w.ds.blocks.create(shortBlock());
    await w.ds.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false });
    await w.ds.handles.create({ handleId: 'old', block: { '10.0.0.0/26': 1 }, deleted: false });
    return w;
  }

  it('autoAssign skips the short affine block and claims a sound one', async () => {
    const { ds, ipam } = await seeded();
    const result = await ipam.autoAssign({ num4: 3, hostname: 'node-a', handleId: 'new', intendedUse: 'Workload' });
    expect(result.ipv4?.ips.map(bare)).toEqual(['10.0.0.64', '10.0.0.65', '10.0.0.66']);
    const stored = await ds.blocks.get('10.0.0.0/26');
    expect(stored.allocations).toEqual([0]);
    expect(stored.sequenceNumber).toBe(5n);
  });

  it('autoAssign refuses rather than use the short block when it is the only room left', async () => {
    const { ds, ipam } = await seeded();
    await ds.blocks.create({ ...shortBlock(), cidr: '10.0.0.64/26', affinity: { type: 'host', host: 'node-b' }, allocations: [], attributes: [], sequenceNumberForAllocation: {} });
    const result = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'new', intendedUse: 'Workload' });
    expect(result.ipv4?.ips).toEqual([]);
    expect(result.ipv4?.msgs).toEqual(['No more free affine blocks and strict affinity enabled']);
  });

  it('borrowing skips it too when strict affinity is off', async () => {
    const { ds, ipam } = await seeded({ ...strictConfig, strictAffinity: false });
    // node-b owns the only other block, full apart from one address.
    await ds.nodes.create({ name: 'node-b' });
    expect((await ipam.autoAssign({ num4: 63, hostname: 'node-b', handleId: 'b', intendedUse: 'Workload' })).ipv4?.ips).toHaveLength(63);
    const borrowed = await ipam.autoAssign({ num4: 2, hostname: 'node-a', handleId: 'new', intendedUse: 'Workload' });
    expect(borrowed.ipv4?.ips.map(bare)).toEqual(['10.0.0.127']);
    expect((await ds.blocks.get('10.0.0.0/26')).allocations).toEqual([0]);
  });

  it('assignIP into the short block is refused with CorruptBlockError and writes nothing', async () => {
    const { ds, ipam } = await seeded();
    await expect(ipam.assignIP({ ip: '10.0.0.5', hostname: 'node-a', handleId: 'new' })).rejects.toBeInstanceOf(CorruptBlockError);
    expect((await ds.blocks.get('10.0.0.0/26')).sequenceNumber).toBe(5n);
  });

  it('releases the allocation it records, keeping the array as short as it was', async () => {
    const { ds, ipam } = await seeded();
    const { unallocated } = await ipam.releaseIPs([{ address: '10.0.0.0' }, { address: '10.0.0.9' }]);
    expect(unallocated).toEqual(['10.0.0.9']);
    const stored = await ds.blocks.get('10.0.0.0/26');
    expect(stored.allocations).toEqual([null]);
    expect(stored.unallocated).toHaveLength(64);
    await expect(ds.handles.get('old')).rejects.toThrow();
  });
});
