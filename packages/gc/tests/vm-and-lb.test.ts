import { loadBalancerHandleId, vmHandleId } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { MemoryClusterView } from '../src/cluster-view/memory-cluster-view.js';
import { Allocation } from '../src/state/allocation.js';
import { isVMAllocationValid } from '../src/validity/allocation-validity.js';
import { HOUR, SECOND, allocatedIPs, gcWorld, useGcWorlds } from './harness.js';

useGcWorlds();

const vmAttrs = { node: 'node-a', namespace: 'vms', pod: 'virt-launcher-vm1-abcde', 'vmi-name': 'vm1' };

describe('isVMAllocationValid', () => {
  type Setup = (v: MemoryClusterView) => void;
  const cases: [string, Record<string, string>, Setup, boolean][] = [
    ['VM present', vmAttrs, (v) => v.upsertVirtualMachine('vms', 'vm1'), true],
    ['VM absent', vmAttrs, () => undefined, false],
    ['standalone VMI', vmAttrs, (v) => v.upsertVirtualMachineInstance({ namespace: 'vms', name: 'vm1', ownerKinds: [] }), true],
    ['VMI owned by a missing VM', vmAttrs, (v) => v.upsertVirtualMachineInstance({ namespace: 'vms', name: 'vm1', ownerKinds: ['VirtualMachine'] }), false],
    ['empty namespace', { ...vmAttrs, namespace: '' }, () => undefined, true],
    ['empty vmi-name', { ...vmAttrs, 'vmi-name': '' }, () => undefined, true],
  ];
  for (const [name, attrs, setup, valid] of cases) {
    it(`${name} → ${valid ? 'valid' : 'invalid'}`, () => {
      const view = new MemoryClusterView();
      view.setKubeVirtInstalled(true);
      setup(view);
      const a = new Allocation('10.0.0.1', 'h', '10.0.0.0/26', attrs, 1n);
      expect(isVMAllocationValid(a, view)).toBe(valid);
    });
  }

  it('treats every VM allocation as valid when KubeVirt is not installed', () => {
    const a = new Allocation('10.0.0.1', 'h', '10.0.0.0/26', vmAttrs, 1n);
    expect(isVMAllocationValid(a, new MemoryClusterView())).toBe(true);
  });
});

describe('VM garbage collection through the scan', () => {
  async function vmWorld(vmGracePeriodMs: number): Promise<Awaited<ReturnType<typeof gcWorld>>> {
    const w = await gcWorld({ gc: { vmGracePeriodMs } });
    w.view.setKubeVirtInstalled(true);
    await w.ipam.assignIP({ ip: '10.0.0.9', hostname: 'node-a', handleId: vmHandleId('k8s-pod-network', 'vms', 'vm1'), attrs: vmAttrs, intendedUse: 'Workload' });
    return w;
  }

  it('releases a VM allocation once the VM grace has passed', async () => {
    const w = await vmWorld(SECOND);
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
  });

  it('keeps a VM allocation a candidate during a long VM grace', async () => {
    const w = await vmWorld(HOUR);
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(0);
    const a = [...w.gc.state.allocationsByNode.get('node-a')!.values()][0]!;
    expect(a.leakedAt).toBe(w.clock.now().getTime() - 2 * SECOND);
    expect(a.isConfirmedLeak()).toBe(false);
  });

  it('clears the candidate when the VM appears during the grace', async () => {
    const w = await vmWorld(HOUR);
    await w.pass({ full: true });
    w.view.upsertVirtualMachine('vms', 'vm1');
    w.clock.advanceMs(2 * SECOND);
    await w.pass({ full: true });
    const a = [...w.gc.state.allocationsByNode.get('node-a')!.values()][0]!;
    expect(a.leakedAt).toBeUndefined();
    expect(a.isConfirmedLeak()).toBe(false);
  });

  it('still collects VM allocations when pod GC is disabled (grace 0)', async () => {
    const w = await gcWorld({ gc: { leakGracePeriodMs: 0, vmGracePeriodMs: SECOND } });
    w.view.setKubeVirtInstalled(true);
    await w.ipam.assignIP({ ip: '10.0.0.9', hostname: 'node-a', handleId: 'vm-h', attrs: vmAttrs, intendedUse: 'Workload' });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(1);
  });
});

describe('LoadBalancer addresses (no node attribute)', () => {
  const service = { name: 'web', namespace: 'default', uid: 'uid-1' };
  async function lbWorld(): Promise<Awaited<ReturnType<typeof gcWorld>>> {
    const w = await gcWorld({ pools: [{ name: 'lb', cidr: '10.1.0.0/24', blockSize: 26, allowedUses: ['LoadBalancer'] }, { name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 }] });
    await w.ipam.assignIP({
      ip: '10.1.0.10',
      hostname: 'node-a',
      handleId: loadBalancerHandleId(service),
      attrs: { service: 'web', namespace: 'default', type: 'LoadBalancer' },
      intendedUse: 'LoadBalancer',
    });
    return w;
  }

  it('never touches them when the view has no Service source', async () => {
    const w = await lbWorld();
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['10.1.0.10']);
    expect(w.gc.state.loadBalancerAllocations.size).toBe(1);
  });

  it('keeps the address while its Service exists', async () => {
    const w = await lbWorld();
    w.view.setServicesWatched(true);
    w.view.upsertService('default', 'web');
    await w.pass({ full: true });
    w.clock.advanceMs(HOUR);
    await w.pass({ full: true });
    expect(await allocatedIPs(w.ds)).toEqual(['10.1.0.10']);
  });

  it('releases the address after the grace period once its Service is gone', async () => {
    const w = await lbWorld();
    w.view.setServicesWatched(true);
    w.view.upsertService('default', 'web');
    await w.pass({ full: true });
    w.view.deleteService('default', 'web');
    await w.pass();
    const a = [...w.gc.state.loadBalancerAllocations.values()][0]!;
    expect(a.isCandidateLeak()).toBe(true);
    w.clock.advanceMs(2 * SECOND);
    expect((await w.pass({ full: true })).released).toBe(1);
    expect(await allocatedIPs(w.ds)).toEqual([]);
  });
});
