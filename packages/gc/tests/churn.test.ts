import { type Datastore, addressAt, cniHandleId, seededRandom } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { SECOND, gcWorld, useGcWorlds } from './harness.js';

useGcWorlds();

async function ownerByIP(ds: Datastore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const block of await ds.blocks.list()) {
    block.allocations.forEach((index, ordinal) => {
      const attr = index === null ? undefined : block.attributes[index];
      if (attr?.handleId !== undefined && attr.releasedAt === undefined) out.set(addressAt(block.cidr, ordinal), attr.handleId);
    });
  }
  return out;
}

interface LivePod {
  readonly name: string;
  readonly node: string;
  readonly ip: string;
  readonly handle: string;
}

describe('churn', () => {
  it('never releases a valid allocation and releases every leak within two grace periods', async () => {
    const grace = 60 * SECOND;
    const step = 10 * SECOND;
    const nodes = Array.from({ length: 20 }, (_, i) => `node-${i}`);
    const w = await gcWorld({ pools: [{ name: 'p', cidr: '10.0.0.0/16', blockSize: 26 }], nodes, gc: { leakGracePeriodMs: grace } });
    for (const name of nodes) await w.ds.nodes.create({ name });
    const random = seededRandom(20260822);
    const live = new Map<string, LivePod>();
    const leaks: { ip: string; handle: string; atMs: number }[] = [];
    let created = 0;
    let released = 0;
    for (let tick = 0; tick < 60; tick++) {
      const nowMs = w.clock.now().getTime();
      // Create pods until 200 have existed, and delete some: cleanly (CNI DEL) or leaking the IP.
      for (let i = 0; i < 6 && created < 200; i++) {
        const node = nodes[Math.floor(random() * nodes.length)] ?? 'node-0';
        const name = `pod-${created}`;
        const handle = cniHandleId('k8s-pod-network', `c-${created}`);
        created++;
        const { ipv4 } = await w.ipam.autoAssign({ num4: 1, handleId: handle, attrs: { node, namespace: 'default', pod: name }, hostname: node, intendedUse: 'Workload' });
        const ip = (ipv4?.ips[0] ?? '').split('/')[0] ?? '';
        expect(ip).not.toBe('');
        w.view.upsertPod({ name, namespace: 'default', nodeName: node, ips: [ip] });
        live.set(name, { name, node, ip, handle });
      }
      for (const pod of [...live.values()]) {
        const roll = random();
        if (roll < 0.05) {
          await w.ipam.releaseByHandle(pod.handle);
          w.view.deletePod('default', pod.name);
          live.delete(pod.name);
        } else if (roll < 0.1) {
          // The pod went but CNI DEL never ran: a leak; half of them without a delete notification.
          w.view.deletePod('default', pod.name, { notify: random() < 0.5 });
          live.delete(pod.name);
          leaks.push({ ip: pod.ip, handle: pod.handle, atMs: nowMs });
        }
      }
      const result = await w.pass({ full: tick % 3 === 0 });
      released += result.released;

      const owners = await ownerByIP(w.ds);
      for (const pod of live.values()) expect(owners.get(pod.ip), `live pod ${pod.name} lost ${pod.ip}`).toBe(pod.handle);
      for (const leak of leaks) {
        if (nowMs - leak.atMs >= 2 * grace) expect(owners.get(leak.ip), `leak ${leak.ip} still held after two grace periods`).not.toBe(leak.handle);
      }
      w.clock.advanceMs(step);
    }
    expect(created).toBe(200);
    expect(leaks.length).toBeGreaterThan(10);
    const stillHeld = leaks.filter((l) => w.clock.now().getTime() - l.atMs > 2 * grace);
    expect(released).toBeGreaterThanOrEqual(stillHeld.length);
  }, 120_000);
});
