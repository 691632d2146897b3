import type { Node } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { sameTunnelAddresses, tunnelAddressOf, withTunnelAddress } from '../src/node-tunnel-fields.js';
import { TUNNEL_KINDS } from '../src/tunnel-kinds.js';

describe('node tunnel fields', () => {
  const node: Node = { name: 'n', labels: { a: 'b' }, tunnelAddresses: { ipv4IPIPTunnelAddr: '10.0.0.1' } };

  it('reads a missing address as empty', () => {
    expect(tunnelAddressOf(node, TUNNEL_KINDS.vxlan)).toBe('');
    expect(tunnelAddressOf(node, TUNNEL_KINDS.ipip)).toBe('10.0.0.1');
  });

  it('sets an address without touching the original Node', () => {
    const next = withTunnelAddress(node, TUNNEL_KINDS['vxlan-v6'], 'fd00::5');
    expect(next).toEqual({ name: 'n', labels: { a: 'b' }, tunnelAddresses: { ipv4IPIPTunnelAddr: '10.0.0.1', ipv6VXLANTunnelAddr: 'fd00::5' } });
    expect(node.tunnelAddresses).toEqual({ ipv4IPIPTunnelAddr: '10.0.0.1' });
  });

  it('drops the whole tunnel object when its last address is cleared', () => {
    expect(withTunnelAddress(node, TUNNEL_KINDS.ipip, '')).toEqual({ name: 'n', labels: { a: 'b' } });
  });

  it.each<[string, Node, Node, boolean]>([
    ['equal when both have none', { name: 'n' }, { name: 'n', tunnelAddresses: {} }, true],
    ['different when one field differs', node, withTunnelAddress(node, TUNNEL_KINDS.ipip, '10.0.0.2'), false],
    ['equal regardless of other fields', node, { ...node, labels: { c: 'd' } }, true],
  ])('compares tunnel addresses: %s', (_name, a, b, expected) => {
    expect(sameTunnelAddresses(a, b)).toBe(expected);
  });
});
