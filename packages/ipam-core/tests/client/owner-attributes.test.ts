import { BadHandleError, ConflictError, ValidationError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { AlternateOwnerEmptyError, type OwnerAttributePreconditions, type OwnerAttributeUpdates, OwnerPreconditionError } from '../../src/index.js';
// The owner swap through the package's public surface, as a caller (a KubeVirt controller) imports it.
import { createVMHandleId, ensureActiveVMOwnerAttrs } from '../../src/index.js';
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

describe.each(BACKENDS)("owner attributes with Calico's semantics on $name", (backend) => {
  async function oneAddress(): Promise<{ ipam: Awaited<ReturnType<typeof world>>['ipam']; ip: string }> {
    const { ipam } = await world(backend);
    const result = await ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: 'vm-h', intendedUse: 'Workload', attrs: pod('src') });
    const ip = (result.ipv4?.ips[0] ?? '').split('/')[0] ?? '';
    return { ipam, ip };
  }

  it('reports an expected-owner mismatch as an update conflict, not retried, and changes nothing', async () => {
    const { ipam, ip } = await oneAddress();
    const err: unknown = await ipam
      .setOwnerAttributes(ip, 'vm-h', { activeOwnerAttrs: pod('dst') }, { expectedActiveOwner: { namespace: 'vms', name: 'someone-else' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toBeInstanceOf(OwnerPreconditionError);
    expect((err as ConflictError).category).toBe('stop-and-re-evaluate');
    expect(await ipam.getAssignmentAttributes(ip)).toEqual({ handleId: 'vm-h', activeOwnerAttrs: pod('src'), alternateOwnerAttrs: {} });
  });

  it('reports "verify empty" on an owner that is set as an update conflict', async () => {
    const { ipam, ip } = await oneAddress();
    await expect(ipam.setOwnerAttributes(ip, 'vm-h', { clearActiveOwner: true }, { verifyActiveOwnerEmpty: true })).rejects.toBeInstanceOf(ConflictError);
    expect((await ipam.getAssignmentAttributes(ip)).activeOwnerAttrs).toEqual(pod('src'));
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['an array', []],
    ['a string', 'clear'],
    ['a non-string attribute', { activeOwnerAttrs: { pod: 3 } }],
    ['a non-boolean clear flag', { clearActiveOwner: 'yes' }],
  ])('rejects %s updates object with a ValidationError and changes nothing', async (_name, updates) => {
    const { ipam, ip } = await oneAddress();
    // Deliberately ill-typed: plain-JS callers reach this API too.
    const call = ipam.setOwnerAttributes(ip, 'vm-h', updates as unknown as OwnerAttributeUpdates);
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    await expect(call).rejects.not.toBeInstanceOf(TypeError);
    expect(await ipam.getAssignmentAttributes(ip)).toEqual({ handleId: 'vm-h', activeOwnerAttrs: pod('src'), alternateOwnerAttrs: {} });
  });

  it('rejects a malformed preconditions object with a ValidationError', async () => {
    const { ipam, ip } = await oneAddress();
    const pre = { expectedActiveOwner: 'src' } as unknown as OwnerAttributePreconditions;
    await expect(ipam.setOwnerAttributes(ip, 'vm-h', { clearActiveOwner: true }, pre)).rejects.toBeInstanceOf(ValidationError);
  });

  it("words a handle mismatch as Calico does: IP <ip> is not assigned to handle <handle>", async () => {
    const { ipam, ip } = await oneAddress();
    const err: unknown = await ipam.setOwnerAttributes(ip, 'not-mine', { clearAlternateOwner: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadHandleError);
    expect((err as Error).message).toBe(`IP ${ip} is not assigned to handle not-mine`);
  });
});
