import { BadSequenceNumberError, BlockLimitError, cidrContains } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { partialAutoAssignResult, sequenceNumberFor } from '../../src/index.js';
import { BACKENDS, bare, useBackends, world } from './fixtures.js';

useBackends();

describe.each(BACKENDS)('sequence numbers returned with assignments on $name', (backend) => {
  async function storedSequenceNumber(ds: Awaited<ReturnType<typeof world>>['ds'], ipNet: string): Promise<bigint | undefined> {
    const ip = bare(ipNet);
    const block = (await ds.blocks.list()).find((b) => cidrContains(b.cidr, ip));
    return block === undefined ? undefined : sequenceNumberFor(block, ip);
  }

  it('autoAssign reports, for each address, the sequence number stored for it', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.autoAssign({ num4: 3, hostname: 'node-a', handleId: 'first', intendedUse: 'Workload' });
    const { ipv4 } = await ipam.autoAssign({ num4: 2, hostname: 'node-a', handleId: 'second', intendedUse: 'Workload' });
    expect(ipv4?.sequenceNumbers).toHaveLength(2);
    const stored = await Promise.all((ipv4?.ips ?? []).map((ip) => storedSequenceNumber(ds, ip)));
    expect(ipv4?.sequenceNumbers).toEqual(stored);
    // Not the first allocation in the block: the number moved on since the block was created.
    expect(ipv4?.sequenceNumbers[0]).toBeGreaterThan(0n);
  });

  it('assignIP resolves to the sequence number stored for the address', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'first', intendedUse: 'Workload' });
    const block = (await ds.blocks.list())[0];
    const ip = (block?.cidr ?? '').replace(/\.0\/26$/, '.9');
    const { sequenceNumber } = await ipam.assignIP({ ip, handleId: 'named', hostname: 'node-a' });
    expect(sequenceNumber).toBe(await storedSequenceNumber(ds, `${ip}/26`));
  });

  it('a release guarded by the returned number frees the address, and a stale one is refused', async () => {
    const { ipam } = await world(backend);
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'pod', intendedUse: 'Workload' });
    const address = bare(ipv4?.ips[0] ?? '');
    const sequenceNumber = ipv4?.sequenceNumbers[0] ?? -1n;
    await expect(ipam.releaseIPs([{ address, handle: 'pod', sequenceNumber: sequenceNumber + 1n }])).rejects.toBeInstanceOf(BadSequenceNumberError);
    const guarded = await ipam.releaseIPs([{ address, handle: 'pod', sequenceNumber }]);
    expect(guarded.released.map((r) => r.address)).toEqual([address]);
  });

  it('a failed autoAssign reports the sequence numbers of what it left allocated', async () => {
    const { ds, ipam } = await world(backend, { config: { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 1, ipCooldownSeconds: 0 } });
    const err: unknown = await ipam.autoAssign({ num4: 65, hostname: 'node-a', handleId: 'big', intendedUse: 'Workload' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockLimitError);
    const partial = partialAutoAssignResult(err)?.ipv4;
    expect(partial?.sequenceNumbers).toHaveLength(64);
    const stored = await Promise.all((partial?.ips ?? []).slice(0, 3).map((ip) => storedSequenceNumber(ds, ip)));
    expect(partial?.sequenceNumbers.slice(0, 3)).toEqual(stored);
  });
});
