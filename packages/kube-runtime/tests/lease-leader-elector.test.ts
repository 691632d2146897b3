import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { LeaseLeaderElector, type LeaseLeaderElectorOptions } from '../src/kubernetes/lease-leader-elector.js';
import { type KubeFixture, leaseSpec, startKube } from './kube-fixture.js';

let kube: KubeFixture | undefined;
const running: LeaseLeaderElector[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) e.stop();
  await kube?.server.close();
  kube = undefined;
});

const LEASE = 'ipamkit-test';
const elector = (k: KubeFixture, identity: string, options: Partial<LeaseLeaderElectorOptions> = {}) =>
  new LeaseLeaderElector({ kubeConfig: k.kc, namespace: 'kube-system', name: LEASE, identity, leaseDurationMs: 60_000, retryPeriodMs: 50, ...options });

describe('LeaseLeaderElector', () => {
  it('lets exactly one of two candidates lead while the lease is fresh', async () => {
    kube = await startKube();
    const a = elector(kube, 'a');
    const b = elector(kube, 'b');
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(leaseSpec(kube, LEASE)?.holderIdentity).toBe('a');
  });

  it('takes over only a lease duration after it last saw the lease change, on its own clock', async () => {
    kube = await startKube();
    let nowMs = Date.UTC(2026, 7, 22, 12, 0, 0);
    const clock = { now: () => new Date(nowMs) };
    const a = elector(kube, 'a', { leaseDurationMs: 15_000, clock });
    const b = elector(kube, 'b', { leaseDurationMs: 15_000, clock });
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    nowMs += 10_000;
    expect(await a.tryAcquireOrRenew()).toBe(true);
    nowMs += 10_000;
    // b last saw a change 20 s ago on its clock, but the renewal it sees now is new to it: wait again.
    expect(await b.tryAcquireOrRenew()).toBe(false);
    nowMs += 14_000;
    expect(await b.tryAcquireOrRenew()).toBe(false);
    nowMs += 1_000;
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(await a.tryAcquireOrRenew()).toBe(false);
    expect(leaseSpec(kube, LEASE)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  }, 30_000);

  it('hands the lease over once its holder stops renewing', async () => {
    kube = await startKube();
    const a = elector(kube, 'a', { leaseDurationMs: 1_000 });
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const b = elector(kube, 'b', { leaseDurationMs: 1_000 });
    // `acquire` retries every 50 ms and wins once it has seen a's lease unchanged for 1 s.
    expect(await b.acquire(new AbortController().signal)).toBe(true);
    expect(leaseSpec(kube, LEASE)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  }, 30_000);

  it('keeps one leader when the two candidates\' clocks differ by 30 s', async () => {
    kube = await startKube();
    const options = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 100 };
    const behind = elector(kube, 'behind', { ...options, clock: { now: () => new Date() } });
    const ahead = elector(kube, 'ahead', { ...options, clock: { now: () => new Date(Date.now() + 30_000) } });
    running.push(behind, ahead);
    const stop = new AbortController();
    const lost: string[] = [];
    const campaign = async (e: LeaseLeaderElector, name: string): Promise<void> => {
      if (await e.acquire(stop.signal)) e.keepRenewing(() => lost.push(name));
    };
    const campaigns = [campaign(behind, 'behind'), campaign(ahead, 'ahead')];
    const holders = new Set<string>();
    let bothLed = false;
    // Sample for three lease durations: a skewed clock that compared renewTime with local time
    // would take over within the first retry period.
    for (let i = 0; i < 120; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (behind.isLeader && ahead.isLeader) bothLed = true;
      const holder = leaseSpec(kube, LEASE)?.holderIdentity;
      if (holder !== undefined) holders.add(holder);
    }
    stop.abort();
    await Promise.all(campaigns);
    expect(bothLed).toBe(false);
    expect(holders.size).toBe(1);
    expect(lost).toEqual([]);
    expect(leaseSpec(kube, LEASE)?.leaseTransitions).toBe(0);
    expect([behind.isLeader, ahead.isLeader].filter(Boolean)).toHaveLength(1);
  }, 30_000);

  it('releases the lease on shutdown, so a successor takes it without waiting for expiry', async () => {
    kube = await startKube();
    const a = elector(kube, 'a');
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const b = elector(kube, 'b');
    expect(await b.tryAcquireOrRenew()).toBe(false);
    await a.release();
    expect(a.isLeader).toBe(false);
    expect(leaseSpec(kube, LEASE)).toMatchObject({ holderIdentity: '', leaseTransitions: 0 });
    // The lease duration is a minute, yet b takes the released lease at once.
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(leaseSpec(kube, LEASE)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  }, 30_000);

  it('leaves no abort listeners behind while it waits for leadership', async () => {
    kube = await startKube();
    expect(await elector(kube, 'a').tryAcquireOrRenew()).toBe(true);
    const b = elector(kube, 'b');
    const stop = new AbortController();
    const waiting = b.acquire(stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // About twenty retry rounds have slept on this signal; at most the current sleep listens.
    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    stop.abort();
    expect(await waiting).toBe(false);
  }, 30_000);
});
