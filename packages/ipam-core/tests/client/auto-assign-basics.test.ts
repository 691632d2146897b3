import { describe, expect, it } from 'vitest';
import { assertConsistent, BACKENDS, bare, useBackends, world } from './fixtures.js';

useBackends();

describe.each(BACKENDS)('autoAssign on $name', (backend) => {
  it('assigns from one new affine block and counts the handle', async () => {
    const { ds, ipam } = await world(backend);
    const { ipv4, ipv6 } = await ipam.autoAssign({ num4: 2, hostname: 'node-a', handleId: 'h1', intendedUse: 'Workload', attrs: { pod: 'p' } });
    expect(ipv6).toBeUndefined();
    expect(ipv4?.ips).toHaveLength(2);
    expect(ipv4?.numRequested).toBe(2);
    expect(ipv4?.msgs).toEqual([]);
    const block = ipv4?.ips[0]?.replace(/\.\d+\/26$/, '') ?? '';
    expect(ipv4?.ips).toEqual([`${block}.0/26`, `${block}.1/26`]);
    const affinities = await ds.affinities.list({ host: 'node-a' });
    expect(affinities.map((a) => [a.cidr, a.state])).toEqual([[`${block}.0/26`, 'confirmed']]);
    expect((await ds.handles.get('h1')).block).toEqual({ [`${block}.0/26`]: 2 });
    expect(await assertConsistent(ds)).toEqual({ allocated: 2, handles: 1 });
  });

  it('keeps using the same affine block on later calls', async () => {
    const { ds, ipam } = await world(backend);
    const first = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'a', intendedUse: 'Workload' });
    const second = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'b', intendedUse: 'Workload' });
    const base = bare(first.ipv4?.ips[0] ?? '');
    const next = base.replace(/\d+$/, (d) => String(Number(d) + 1));
    expect(second.ipv4?.ips).toEqual([`${next}/26`]);
    expect(await ds.blocks.list()).toHaveLength(1);
  });

  it('assigns both families for a dual-stack request', async () => {
    const { ds, ipam } = await world(backend, {
      pools: [
        { name: 'v4', cidr: '10.1.0.0/24', blockSize: 26 },
        { name: 'v6', cidr: 'fd00:1::/120', blockSize: 122 },
      ],
    });
    const { ipv4, ipv6 } = await ipam.autoAssign({ num4: 1, num6: 1, hostname: 'node-a', handleId: 'ds', intendedUse: 'Workload' });
    expect(ipv4?.ips).toHaveLength(1);
    expect(ipv6?.ips).toHaveLength(1);
    expect(ipv6?.ipVersion).toBe(6);
    expect(ipv6?.ips[0]).toMatch(/^fd00:1::([0-9a-f]+)?\/122$/);
    const handle = await ds.handles.get('ds');
    expect(Object.values(handle.block)).toEqual([1, 1]);
    expect(await assertConsistent(ds)).toEqual({ allocated: 2, handles: 1 });
  });

  it('allocates /122 IPv6 blocks of 64 addresses', async () => {
    const { ds, ipam } = await world(backend, { pools: [{ name: 'v6', cidr: 'fd00:2::/120', blockSize: 122 }] });
    const { ipv6 } = await ipam.autoAssign({ num6: 65, hostname: 'node-a', intendedUse: 'Workload' });
    expect(ipv6?.ips).toHaveLength(65);
    const blocks = await ds.blocks.list({ ipVersion: 6 });
    expect(blocks).toHaveLength(2);
    expect(blocks.map((b) => b.allocations.length)).toEqual([64, 64]);
    expect(new Set(ipv6?.ips.map(bare)).size).toBe(65);
  });

  it('requires an intended use', async () => {
    const { ipam } = await world(backend);
    await expect(ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: '' as 'Workload' })).rejects.toMatchObject({ name: 'UseRequiredError' });
  });

  it('rejects a bad count without writing anything', async () => {
    const { ds, ipam } = await world(backend);
    await expect(ipam.autoAssign({ num4: -1, hostname: 'node-a', intendedUse: 'Workload' })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await ds.blocks.list()).toEqual([]);
  });

  it('fails for a host with no Node object', async () => {
    const { ipam } = await world(backend);
    await expect(ipam.autoAssign({ num4: 1, hostname: 'ghost', intendedUse: 'Workload' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('uses a virtual affinity and no Node for LoadBalancer addresses', async () => {
    const { ds, ipam } = await world(backend, { pools: [{ name: 'lb', cidr: '10.9.0.0/24', blockSize: 26, allowedUses: ['LoadBalancer'] }] });
    const { ipv4 } = await ipam.autoAssign({ num4: 1, hostname: 'load-balancer', intendedUse: 'LoadBalancer' });
    expect(ipv4?.ips).toHaveLength(1);
    const affinities = await ds.affinities.list({ host: 'load-balancer' });
    expect(affinities.map((a) => a.type)).toEqual(['virtual']);
    const [block] = await ds.blocks.list();
    expect(block?.affinity).toEqual({ type: 'virtual', host: 'load-balancer' });
  });
});
