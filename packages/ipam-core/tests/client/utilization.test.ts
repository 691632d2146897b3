import { describe, expect, it } from 'vitest';
import { BACKENDS, useBackends, world } from './fixtures.js';

useBackends();

describe.each(BACKENDS)('getUtilization on $name', (backend) => {
  it('reports pool and block counts from the stored blocks and reservations', async () => {
    const { ds, ipam } = await world(backend, { pools: [{ name: 'p', cidr: '10.0.0.0/25', blockSize: 26 }] });
    await ds.ipReservations.create({ name: 'r', reservedCIDRs: ['10.0.0.64/30'] });
    await ipam.assignIP({ ip: '10.0.0.1', hostname: 'node-a', intendedUse: 'Workload' });
    await ipam.assignIP({ ip: '10.0.0.2', hostname: 'node-a', intendedUse: 'Workload' });
    const [pool, orphans] = await ipam.getUtilization();
    expect(pool).toEqual({
      name: 'p',
      cidr: '10.0.0.0/25',
      capacity: 128n,
      inUse: 2n,
      reserved: 4n,
      available: 62n + 60n,
      blocks: [{ cidr: '10.0.0.0/26', capacity: 64n, inUse: 2n, reserved: 0n, available: 62n }],
    });
    expect(orphans?.name).toBe('orphaned allocation blocks');
    expect(await ipam.getUtilization({ pools: ['p'] })).toHaveLength(1);
  });
});
