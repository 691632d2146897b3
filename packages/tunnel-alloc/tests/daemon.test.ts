import type { IpamClient } from '@ipamkit/ipam-core';
import { NotFoundError, type IPPool } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { TunnelReconcileError, type Logger } from '../src/index.js';
import { TUNNEL_KINDS, tunnelHandleOf } from '../src/tunnel-kinds.js';
import { daemonFor, has, lacks } from './daemon-harness.js';
import { ETCD, NODE, ownAllocation, SQLITE, useBackends, world, type Backend } from './fixtures.js';

useBackends();

const ipip = TUNNEL_KINDS.ipip;
const vxlan = TUNNEL_KINDS.vxlan;
const pool: IPPool = { name: 'pool-a', cidr: '10.10.0.0/24', blockSize: 26, ipipMode: 'Always' };

describe.each([SQLITE, ETCD])('tunnel allocation daemon on $name', (backend: Backend) => {
  it('flips from an IPIP to a VXLAN address when the pool changes encapsulation, without restarting', async () => {
    const w = await world(backend, { pools: [pool], nodes: [{ name: NODE }] });
    const { daemon, reconciled } = daemonFor(w);
    try {
      const first = await reconciled(has(ipip));
      const ipipAddress = first.node.tunnelAddresses!.ipv4IPIPTunnelAddr!;
      expect(await w.ipam.ipsByHandle(tunnelHandleOf(ipip, NODE))).toEqual([ipipAddress]);

      const stored = await w.ds.ipPools.get('pool-a');
      await w.ds.ipPools.update({ ...stored, ipipMode: 'Never', vxlanMode: 'Always' });
      const flipped = await reconciled((r) => has(vxlan)(r) && lacks(ipip)(r));
      const vxlanAddress = flipped.node.tunnelAddresses!.ipv4VXLANTunnelAddr!;

      const node = await w.ds.nodes.get(NODE);
      expect(node.tunnelAddresses).toEqual({ ipv4VXLANTunnelAddr: vxlanAddress });
      await expect(w.ipam.ipsByHandle(tunnelHandleOf(ipip, NODE))).rejects.toBeInstanceOf(NotFoundError);
      expect(await w.ipam.ipsByHandle(tunnelHandleOf(vxlan, NODE))).toEqual([vxlanAddress]);
    } finally {
      await daemon.stop();
    }
  });

  it('reconciles after an edit of only the pool nodeSelector (Calico waits for an unrelated trigger)', async () => {
    const w = await world(backend, {
      pools: [{ ...pool, nodeSelector: "zone == 'b'" }],
      nodes: [{ name: NODE, labels: { zone: 'a' } }],
    });
    const { daemon, reconciled } = daemonFor(w);
    try {
      const first = await reconciled(() => true);
      expect(first.node.tunnelAddresses).toBeUndefined();
      const stored = await w.ds.ipPools.get('pool-a');
      await w.ds.ipPools.update({ ...stored, nodeSelector: "zone == 'a'" });
      const after = await reconciled(has(ipip));
      expect(after.decisions.find((d) => d.type === 'ipip')).toMatchObject({ enabled: true, outcome: 'assigned-empty' });
    } finally {
      await daemon.stop();
    }
  });

  it('runs one more reconcile for a change that arrives while a reconcile is running (Calico drops it)', async () => {
    // The first reconcile keeps an existing address, so it writes no Node and raises no trigger of
    // its own: only the pool change raised during it can cause the second reconcile.
    const a7 = '10.10.0.7';
    const w = await world(backend, { pools: [pool], nodes: [{ name: NODE, tunnelAddresses: { ipv4IPIPTunnelAddr: a7 } }] });
    await ownAllocation(w, ipip, a7);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let lookupStarted!: () => void;
    const started = new Promise<void>((resolve) => (lookupStarted = resolve));
    let lookups = 0;
    const slowIpam: IpamClient = {
      ...w.ipam,
      getAssignmentAttributes: async (ip) => {
        lookups += 1;
        if (lookups === 1) {
          lookupStarted();
          await gate;
        }
        return w.ipam.getAssignmentAttributes(ip);
      },
    };
    let sawPoolTrigger!: () => void;
    const poolTriggered = new Promise<void>((resolve) => (sawPoolTrigger = resolve));
    const logger: Logger = {
      info: (message, fields) => {
        if (message === 'reconcile triggered' && fields?.['reason'] === 'pool changed') sawPoolTrigger();
      },
      warn: () => undefined,
      debug: () => undefined,
      error: () => undefined,
    };
    const { daemon, reconciled, results } = daemonFor(w, { ipam: slowIpam, logger });
    try {
      await started;
      const stored = await w.ds.ipPools.get('pool-a');
      await w.ds.ipPools.update({ ...stored, ipipMode: 'Never', vxlanMode: 'Always' });
      await poolTriggered;
      openGate();
      const final = await reconciled((r) => has(vxlan)(r) && lacks(ipip)(r));
      expect(results[0]!.decisions.find((d) => d.type === 'ipip')).toMatchObject({ outcome: 'kept', address: a7 });
      expect(results[0]!.nodeUpdated).toBe(false);
      expect(final.node.tunnelAddresses).toEqual({ ipv4VXLANTunnelAddr: final.node.tunnelAddresses?.ipv4VXLANTunnelAddr });
    } finally {
      openGate();
      await daemon.stop();
    }
  });

  it('stops with a reconcile error when its Node does not exist', async () => {
    const w = await world(backend, { pools: [pool], nodes: [] });
    const { daemon } = daemonFor(w);
    await expect(daemon.done).rejects.toBeInstanceOf(TunnelReconcileError);
    await expect(daemon.done).rejects.toThrow(`failed to reconcile tunnel address: failed to fetch node resource '${NODE}'`);
  });
});
