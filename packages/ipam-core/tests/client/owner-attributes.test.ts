import { BadHandleError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { AlternateOwnerEmptyError, createVMHandleId, ensureActiveVMOwnerAttrs, OwnerPreconditionError } from '../../src/index.js';
import { BACKENDS, useBackends, world } from './fixtures.js';

useBackends();

const pod = (name: string) => ({ namespace: 'vms', pod: name });

describe.each(BACKENDS)('owner attributes on $name', (backend) => {
  it('sets an alternate owner only when the precondition holds, and changes only that address', async () => {
    const { ipam } = await world(backend);
    await ipam.autoAssign({ num4: 2, hostname: 'node-a', handleId: 'h', intendedUse: 'Workload', attrs: pod('src') });
    const [ip, sibling] = await ipam.ipsByHandle('h');
    await expect(
      ipam.setOwnerAttributes(ip!, 'h', { alternateOwnerAttrs: pod('dst') }, { expectedActiveOwner: { namespace: 'vms', name: 'nope' }, verifyAlternateOwnerEmpty: true }),
    ).resolves.toBeUndefined();
    await expect(
      ipam.setOwnerAttributes(ip!, 'h', { alternateOwnerAttrs: pod('other') }, { verifyAlternateOwnerEmpty: true }),
    ).rejects.toBeInstanceOf(OwnerPreconditionError);
    expect(await ipam.getAssignmentAttributes(ip!)).toEqual({ handleId: 'h', activeOwnerAttrs: pod('src'), alternateOwnerAttrs: pod('dst') });
    expect(await ipam.getAssignmentAttributes(sibling!)).toEqual({ handleId: 'h', activeOwnerAttrs: pod('src'), alternateOwnerAttrs: {} });
    await expect(ipam.setOwnerAttributes(ip!, 'other', { clearAlternateOwner: true })).rejects.toBeInstanceOf(BadHandleError);
  });

  it('swaps the active and alternate owners after a live migration, idempotently', async () => {
    const { ipam } = await world(backend);
    const handleId = createVMHandleId('', 'vms', 'vm1');
    expect(handleId).toBe('k8s-pod-network.vmi.vms.vm1');
    await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId, intendedUse: 'Workload', attrs: pod('src'), maxAllocToHandlePerIPVersion: 1 });
    const [ip] = await ipam.ipsByHandle(handleId);
    const target = { namespace: 'vms', name: 'dst' };
    await expect(ensureActiveVMOwnerAttrs(ipam, { networkName: '', namespace: 'vms', vmiName: 'vm1', targetPod: target })).rejects.toBeInstanceOf(AlternateOwnerEmptyError);
    await ipam.setOwnerAttributes(ip!, handleId, { alternateOwnerAttrs: pod('dst') });
    await ensureActiveVMOwnerAttrs(ipam, { networkName: '', namespace: 'vms', vmiName: 'vm1', targetPod: target });
    expect(await ipam.getAssignmentAttributes(ip!)).toEqual({ handleId, activeOwnerAttrs: pod('dst'), alternateOwnerAttrs: pod('src') });
    await ensureActiveVMOwnerAttrs(ipam, { networkName: '', namespace: 'vms', vmiName: 'vm1', targetPod: target });
    expect((await ipam.getAssignmentAttributes(ip!)).activeOwnerAttrs).toEqual(pod('dst'));
  });
});

describe('createVMHandleId', () => {
  it('hashes a suffix that would exceed 128 characters', () => {
    const id = createVMHandleId('net', 'ns', 'v'.repeat(200));
    expect(id.startsWith('net.vmi._')).toBe(true);
    expect(id.length).toBeLessThanOrEqual(128);
  });
});
