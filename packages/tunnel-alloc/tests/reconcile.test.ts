import { cidrContains, ipVersionOfAddress, type IPPool } from '@ipamkit/models';
import type { IpamClient } from '@ipamkit/ipam-core';
import { describe, expect, it } from 'vitest';
import { reconcileTunnelAddresses, TunnelAddressParseError } from '../src/index.js';
import { TUNNEL_KINDS, tunnelHandleOf } from '../src/tunnel-kinds.js';
import {
  ALL_KINDS,
  ETCD,
  FIVE_TYPE_POOLS,
  NODE,
  SQLITE,
  WIREGUARD_NODE,
  liveAllocations,
  reconcile,
  useBackends,
  world,
  type Backend,
} from './fixtures.js';

useBackends();

describe.each([SQLITE, ETCD])('reconcileTunnelAddresses on $name', (backend: Backend) => {
  it('assigns all five tunnel types in one Node write, then keeps them without writing', async () => {
    const w = await world(backend, { pools: FIVE_TYPE_POOLS, nodes: [WIREGUARD_NODE] });
    const first = await reconcile(w);
    expect(first.nodeUpdated).toBe(true);
    expect(first.decisions.map((d) => [d.type, d.outcome])).toEqual([
      ['wireguard', 'assigned-empty'],
      ['wireguard-v6', 'assigned-empty'],
      ['ipip', 'assigned-empty'],
      ['vxlan', 'assigned-empty'],
      ['vxlan-v6', 'assigned-empty'],
    ]);
    const tunnels = (await w.ds.nodes.get(NODE)).tunnelAddresses ?? {};
    expect(Object.keys(tunnels).sort()).toEqual(ALL_KINDS.map((k) => k.nodeField).sort());
    expect(cidrContains('10.10.0.0/24', tunnels.ipv4IPIPTunnelAddr!)).toBe(true);
    expect(cidrContains('10.20.0.0/24', tunnels.ipv4VXLANTunnelAddr!)).toBe(true);
    expect(cidrContains('fd00:b::/120', tunnels.ipv6VXLANTunnelAddr!)).toBe(true);
    // WireGuard takes the first qualifying pool of its family in name order.
    expect(cidrContains('10.10.0.0/24', tunnels.wireguardInterfaceIPv4Address!)).toBe(true);
    expect(ipVersionOfAddress(tunnels.wireguardInterfaceIPv6Address!)).toBe(6);
    const expected = Object.fromEntries(ALL_KINDS.map((k) => [tunnels[k.nodeField]!, tunnelHandleOf(k, NODE)]));
    expect(await liveAllocations(w.ds)).toEqual(expected);

    const revision = (await w.ds.nodes.get(NODE)).revision;
    const second = await reconcile(w);
    expect(second.nodeUpdated).toBe(false);
    expect(second.decisions.every((d) => d.outcome === 'kept')).toBe(true);
    expect((await w.ds.nodes.get(NODE)).revision).toBe(revision);
  });

  it('rolls back the addresses it assigned when a later tunnel type fails', async () => {
    const pools: IPPool[] = [{ name: 'v4', cidr: '10.10.0.0/24', blockSize: 26, ipipMode: 'Always' }];
    const w = await world(backend, {
      pools,
      nodes: [{ name: NODE, wireguardPublicKey: 'k=', tunnelAddresses: { ipv4IPIPTunnelAddr: 'garbage' } }],
    });
    // WireGuard is processed first and gets an address; IPIP then fails on the unparsable field.
    await expect(reconcile(w)).rejects.toBeInstanceOf(TunnelAddressParseError);
    expect(await liveAllocations(w.ds)).toEqual({});
    expect((await w.ds.nodes.get(NODE)).tunnelAddresses).toEqual({ ipv4IPIPTunnelAddr: 'garbage' });
  });

  it('re-applies only its tunnel fields when another writer updates the Node mid-reconcile', async () => {
    const pools: IPPool[] = [{ name: 'v4', cidr: '10.10.0.0/24', blockSize: 26, vxlanMode: 'Always' }];
    const w = await world(backend, { pools, nodes: [{ name: NODE, labels: { zone: 'a' } }] });
    const meddling: IpamClient = {
      ...w.ipam,
      autoAssign: async (args) => {
        const current = await w.ds.nodes.get(NODE);
        await w.ds.nodes.update({ ...current, labels: { zone: 'a', kubelet: 'was-here' } });
        return w.ipam.autoAssign(args);
      },
    };
    const result = await reconcile(w, meddling);
    const node = await w.ds.nodes.get(NODE);
    expect(result.nodeUpdated).toBe(true);
    expect(node.labels).toEqual({ zone: 'a', kubelet: 'was-here' });
    expect(node.tunnelAddresses?.ipv4VXLANTunnelAddr).toBe(result.node.tunnelAddresses?.ipv4VXLANTunnelAddr);
    expect(await w.ipam.ipsByHandle(tunnelHandleOf(TUNNEL_KINDS.vxlan, NODE))).toEqual([node.tunnelAddresses?.ipv4VXLANTunnelAddr]);
  });

  it('uses the explicit WireGuard setting over the inference', async () => {
    const pools: IPPool[] = [{ name: 'v4', cidr: '10.10.0.0/24', blockSize: 26 }];
    const w = await world(backend, { pools, nodes: [{ name: NODE }] });
    const result = await reconcileTunnelAddresses({ datastore: w.ds, ipam: w.ipam, nodeName: NODE, wireguard: { ipv4: 'enabled' } });
    expect(result.decisions[0]).toMatchObject({ type: 'wireguard', enabled: true, outcome: 'assigned-empty' });
    expect(result.node.tunnelAddresses?.wireguardInterfaceIPv4Address).toBeDefined();
  });
});
