import fc from 'fast-check';
import type { IPPool, Node } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { PoolCidrError } from '../src/index.js';
import { qualifyingPoolCidrs, type PoolSkipReason } from '../src/qualifying-pools.js';
import { TUNNEL_KINDS, type TunnelKind } from '../src/tunnel-kinds.js';

const node: Node = { name: 'node-1', labels: { zone: 'a', rack: '7' } };
const v4 = (extra: Partial<IPPool> = {}): IPPool => ({ name: 'p4', cidr: '10.0.0.0/16', ...extra });
const v6 = (extra: Partial<IPPool> = {}): IPPool => ({ name: 'p6', cidr: 'fd00::/64', ...extra });

function skipped(kind: TunnelKind, pool: IPPool, wireguardEnabled = true): PoolSkipReason | 'qualifies' {
  let reason: PoolSkipReason | 'qualifies' = 'qualifies';
  qualifyingPoolCidrs({ node, pools: [pool], kind, wireguardEnabled, onSkip: (_p, r) => (reason = r) });
  return reason;
}

describe('qualifyingPoolCidrs', () => {
  const { ipip, vxlan, wireguard } = TUNNEL_KINDS;
  const vxlan6 = TUNNEL_KINDS['vxlan-v6'];
  const wireguard6 = TUNNEL_KINDS['wireguard-v6'];

  it.each([
    ['IPIP takes an IPv4 pool with ipipMode Always', ipip, v4({ ipipMode: 'Always' }), 'qualifies'],
    ['IPIP takes an IPv4 pool with ipipMode CrossSubnet', ipip, v4({ ipipMode: 'CrossSubnet' }), 'qualifies'],
    ['IPIP refuses ipipMode Never', ipip, v4({ ipipMode: 'Never' }), 'encapsulation'],
    ['IPIP refuses a pool with no ipipMode', ipip, v4({ vxlanMode: 'Always' }), 'encapsulation'],
    ['IPIP refuses IPv6 pools', ipip, v6({ ipipMode: 'Always' }), 'family'],
    ['VXLAN takes vxlanMode Always', vxlan, v4({ vxlanMode: 'Always' }), 'qualifies'],
    ['VXLAN takes vxlanMode CrossSubnet', vxlan, v4({ vxlanMode: 'CrossSubnet' }), 'qualifies'],
    ['VXLAN refuses an IPIP-only pool', vxlan, v4({ ipipMode: 'Always' }), 'encapsulation'],
    ['VXLAN v6 takes an IPv6 VXLAN pool', vxlan6, v6({ vxlanMode: 'Always' }), 'qualifies'],
    ['VXLAN v6 refuses an IPv4 VXLAN pool', vxlan6, v4({ vxlanMode: 'Always' }), 'family'],
    ['WireGuard takes any IPv4 pool', wireguard, v4(), 'qualifies'],
    ['WireGuard v6 takes any IPv6 pool', wireguard6, v6({ vxlanMode: 'Always' }), 'qualifies'],
    ['WireGuard refuses IPv6 pools', wireguard, v6(), 'family'],
    ['an allowedUses without Tunnel disqualifies', ipip, v4({ ipipMode: 'Always', allowedUses: ['Workload'] }), 'allowed-uses'],
    ['an empty allowedUses is allowed', ipip, v4({ ipipMode: 'Always', allowedUses: [] }), 'qualifies'],
    ['allowedUses with Tunnel qualifies', ipip, v4({ ipipMode: 'Always', allowedUses: ['Tunnel'] }), 'qualifies'],
    ['a disabled pool does not qualify', ipip, v4({ ipipMode: 'Always', disabled: true }), 'disabled'],
    ['a pool being deleted does not qualify', ipip, v4({ ipipMode: 'Always', deletionTimestamp: '2026-11-29T00:00:00Z' }), 'disabled'],
    [
      'a pool marked Allocatable=False does not qualify',
      ipip,
      v4({ ipipMode: 'Always', conditions: [{ type: 'Allocatable', status: 'False' }] }),
      'disabled',
    ],
    ['a selector matching the node qualifies', ipip, v4({ ipipMode: 'Always', nodeSelector: "zone == 'a'" }), 'qualifies'],
    ['a selector not matching the node disqualifies', ipip, v4({ ipipMode: 'Always', nodeSelector: "zone == 'b'" }), 'node-selector'],
    ['a selector that does not parse skips the pool', ipip, v4({ ipipMode: 'Always', nodeSelector: 'zone ==' }), 'selector-parse'],
  ] as const)('%s', (_name, kind, pool, expected) => {
    expect(skipped(kind, pool)).toBe(expected);
  });

  it('returns no pools for WireGuard when WireGuard is not enabled on the node', () => {
    expect(qualifyingPoolCidrs({ node, pools: [v4()], kind: wireguard, wireguardEnabled: false })).toEqual([]);
  });

  it('lists qualifying pools in pool-name order', () => {
    const pools: IPPool[] = [
      { name: 'zeta', cidr: '10.2.0.0/16', ipipMode: 'Always' },
      { name: 'alpha', cidr: '10.1.0.0/16', ipipMode: 'Always' },
      { name: 'mid', cidr: '10.3.0.0/16', ipipMode: 'Never' },
    ];
    expect(qualifyingPoolCidrs({ node, pools, kind: ipip, wireguardEnabled: false })).toEqual(['10.1.0.0/16', '10.2.0.0/16']);
  });

  it('throws PoolCidrError for a pool whose CIDR does not parse', () => {
    expect(() => qualifyingPoolCidrs({ node, pools: [{ name: 'bad', cidr: '10.0.0/99' }], kind: ipip, wireguardEnabled: false })).toThrow(
      PoolCidrError,
    );
  });

  it('never returns a pool of the wrong family or without the kind encapsulation (property)', () => {
    const mode = fc.constantFrom(undefined, 'Never', 'Always', 'CrossSubnet');
    const pool = fc.record({
      name: fc.string({ minLength: 1, maxLength: 6 }),
      family: fc.constantFrom(4, 6),
      octet: fc.integer({ min: 0, max: 255 }),
      ipipMode: mode,
      vxlanMode: mode,
      disabled: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(pool, { maxLength: 8 }), fc.constantFrom(...Object.values(TUNNEL_KINDS)), (raw, kind) => {
        const pools: IPPool[] = raw.map((p) => ({
          name: p.name,
          cidr: p.family === 4 ? `10.${p.octet}.0.0/16` : `fd00:${p.octet.toString(16)}::/64`,
          ...(p.ipipMode === undefined ? {} : { ipipMode: p.ipipMode }),
          ...(p.vxlanMode === undefined ? {} : { vxlanMode: p.vxlanMode }),
          disabled: p.disabled,
        }));
        const chosen = qualifyingPoolCidrs({ node, pools, kind, wireguardEnabled: true });
        for (const cidr of chosen) {
          const source = pools.filter((p) => p.cidr === cidr);
          expect(source.some((p) => p.disabled !== true && (cidr.includes(':') ? 6 : 4) === kind.version)).toBe(true);
          if (kind.encapsulation !== undefined) {
            const field = kind.encapsulation;
            expect(source.some((p) => p[field] === 'Always' || p[field] === 'CrossSubnet')).toBe(true);
          }
        }
      }),
    );
  });
});
