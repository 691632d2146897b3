import { AlreadyExistsError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { assertConsistent, BACKENDS, strictConfig, useBackends, world } from './fixtures.js';

useBackends();

describe.each(BACKENDS)('assignIP on $name', (backend) => {
  it('claims the block for the host and counts the handle once', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.assignIP({ ip: '10.0.0.70', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload', attrs: { pod: 'p' } });
    expect((await ds.blocks.get('10.0.0.64/26')).affinity).toEqual({ type: 'host', host: 'node-a' });
    expect((await ds.handles.get('h')).block).toEqual({ '10.0.0.64/26': 1 });
    expect(await ipam.getAssignmentAttributes('10.0.0.70')).toEqual({ handleId: 'h', activeOwnerAttrs: { pod: 'p' }, alternateOwnerAttrs: {} });
  });

  it('refuses an address already in use and leaves the handle untouched', async () => {
    const { ds, ipam } = await world(backend);
    await ipam.assignIP({ ip: '10.0.0.5', hostname: 'node-a', handleId: 'h', intendedUse: 'Workload' });
    await expect(ipam.assignIP({ ip: '10.0.0.5', hostname: 'node-a', handleId: 'h2', intendedUse: 'Workload' })).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(ds.handles.get('h2')).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(await assertConsistent(ds)).toEqual({ allocated: 1, handles: 1 });
  });

  it('is idempotent for a capped handle that already holds the address', async () => {
    const { ds, ipam } = await world(backend);
    const args = { ip: '10.0.0.5', hostname: 'node-a', handleId: 'vm', intendedUse: 'Workload', maxAllocToHandlePerIPVersion: 1 } as const;
    await ipam.assignIP(args);
    await ipam.assignIP(args);
    await expect(ipam.assignIP({ ...args, ip: '10.0.0.6' })).rejects.toThrow('cannot assign additional IP 10.0.0.6');
    expect((await ds.handles.get('vm')).block).toEqual({ '10.0.0.0/26': 1 });
  });

  it('refuses another host block under strict affinity and borrows from it otherwise', async () => {
    const strict = await world(backend, { config: strictConfig });
    await strict.ipam.assignIP({ ip: '10.0.0.1', hostname: 'node-b', intendedUse: 'Workload' });
    await expect(strict.ipam.assignIP({ ip: '10.0.0.2', hostname: 'node-a', intendedUse: 'Workload' })).rejects.toMatchObject({ name: 'AffinityMismatchError' });
    const loose = await world(backend);
    await loose.ipam.assignIP({ ip: '10.0.0.1', hostname: 'node-b', intendedUse: 'Workload' });
    await loose.ipam.assignIP({ ip: '10.0.0.2', hostname: 'node-a', handleId: 'x', intendedUse: 'Workload' });
    expect(await loose.ipam.ipsByHandle('x')).toEqual(['10.0.0.2']);
  });

  it('checks the pool and its allowed uses', async () => {
    const { ipam } = await world(backend, { pools: [{ name: 'tunnels', cidr: '10.4.0.0/26', blockSize: 26, allowedUses: ['Tunnel'] }] });
    await expect(ipam.assignIP({ ip: '192.168.1.1', hostname: 'node-a', intendedUse: 'Workload' })).rejects.toThrow('not in a configured pool');
    await expect(ipam.assignIP({ ip: '10.4.0.1', hostname: 'node-a', intendedUse: 'Workload' })).rejects.toThrow(
      'IP address 10.4.0.1 is in IP pool "tunnels", which is not allowed for use "Workload"',
    );
  });
});
