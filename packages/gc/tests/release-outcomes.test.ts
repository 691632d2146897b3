import { BadSequenceNumberError } from '@ipamkit/models';
import type { IpamClient } from '@ipamkit/ipam-core';
import { describe, expect, it } from 'vitest';
import { GcController } from '../src/controller/gc-controller.js';
import { UnexpectedReleaseError } from '../src/errors.js';
import { SECOND, allocatePodIP, allocatedIPs, gcWorld, useGcWorlds } from './harness.js';

useGcWorlds();

describe('release outcomes', () => {
  it('applies a partial release and leaves the refused block for a later pass', async () => {
    const w = await gcWorld({ nodes: ['node-a', 'node-b'], gc: { maxReleasesPerPass: 10 } });
    const a = await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone-a' });
    const b = await allocatePodIP(w, { ip: '10.0.0.70', node: 'node-b', namespace: 'default', pod: 'gone-b' });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    // b's address is freed and handed out again (same handle, new sequence number) behind the
    // collector's back: its cached sequence number is now stale.
    await w.ipam.releaseByHandle(b);
    await allocatePodIP(w, { ip: '10.0.0.70', node: 'node-b', namespace: 'default', pod: 'gone-b', handle: b });
    await expect(w.gc.syncNow({ full: true })).rejects.toBeInstanceOf(BadSequenceNumberError);
    expect(await allocatedIPs(w.ds)).toEqual(['10.0.0.70']);
    expect(w.gc.state.allocationsByHandle.has(a)).toBe(false);
    expect(w.gc.state.confirmedLeaks.size).toBe(1);
    // The next listing refreshes b's sequence number and clears its leak state.
    await w.gc.refresh();
    expect(w.gc.state.confirmedLeaks.size).toBe(0);
  });

  it('rolls leaks over the per-pass cap into the next pass', async () => {
    const w = await gcWorld({ gc: { maxReleasesPerPass: 2 } });
    for (const ip of ['10.0.0.5', '10.0.0.6', '10.0.0.7']) await allocatePodIP(w, { ip, node: 'node-a', namespace: 'default', pod: `gone-${ip}` });
    await w.pass({ full: true });
    w.clock.advanceMs(2 * SECOND);
    const first = await w.pass({ full: true });
    expect(first.released).toBe(2);
    expect(first.workRemaining?.confirmedLeaks).toBe(1);
    const second = await w.pass();
    expect(second.released).toBe(1);
    expect(second.workRemaining).toBeUndefined();
    expect(await allocatedIPs(w.ds)).toEqual([]);
  });

  it('stops the pass when releaseIPs reports an address it was not asked to release', async () => {
    const w = await gcWorld();
    const lying: IpamClient = { ...w.ipam, releaseIPs: async () => Promise.resolve({ unallocated: [], released: [{ address: '10.9.9.9', handle: 'x', sequenceNumber: 0n }] }) };
    await w.gc.stop();
    const gc = new GcController({ datastore: w.ds, view: w.view, ipam: lying, clock: w.clock, leakGracePeriodMs: SECOND, background: false });
    await gc.start();
    await allocatePodIP(w, { ip: '10.0.0.5', node: 'node-a', namespace: 'default', pod: 'gone' });
    await gc.refresh();
    await gc.syncNow({ full: true });
    w.clock.advanceMs(2 * SECOND);
    await expect(gc.syncNow({ full: true })).rejects.toBeInstanceOf(UnexpectedReleaseError);
    await gc.assertConsistentState({ fixtureInvariants: true });
    await gc.stop();
  });
});
