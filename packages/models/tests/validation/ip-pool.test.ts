import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import type { IPPool } from '../../src/resources/ip-pool.js';
import { applyIPPoolDefaults } from '../../src/validation/ip-pool-defaults.js';
import { IPPoolValidationError } from '../../src/validation/ip-pool-validation-error.js';
import { ipPoolProblems, validateIPPool } from '../../src/validation/validate-ip-pool.js';

const v4: IPPool = { name: 'pool-v4', cidr: '10.0.0.0/16' };
const v6: IPPool = { name: 'pool-v6', cidr: 'fd00::/64' };

describe('applyIPPoolDefaults', () => {
  it('fills the read-time defaults for IPv4 and IPv6', () => {
    expect(applyIPPoolDefaults(v4)).toEqual({
      name: 'pool-v4',
      cidr: '10.0.0.0/16',
      blockSize: 26,
      nodeSelector: 'all()',
      allowedUses: ['Workload', 'Tunnel'],
      assignmentMode: 'Automatic',
      ipipMode: 'Never',
      vxlanMode: 'Never',
    });
    expect(applyIPPoolDefaults({ ...v6, blockSize: 0, nodeSelector: '', allowedUses: [] })).toEqual({
      name: 'pool-v6',
      cidr: 'fd00::/64',
      blockSize: 122,
      nodeSelector: 'all()',
      allowedUses: ['Workload', 'Tunnel'],
      assignmentMode: 'Automatic',
      ipipMode: 'Never',
      vxlanMode: 'Never',
    });
  });

  it('keeps values that are set and does not touch the input', () => {
    const pool: IPPool = {
      ...v4,
      blockSize: 24,
      nodeSelector: 'zone == "a"',
      allowedUses: ['LoadBalancer'],
      assignmentMode: 'Manual',
      vxlanMode: 'Always',
      natOutgoing: true,
    };
    const copy = structuredClone(pool);
    const defaulted = applyIPPoolDefaults(pool);
    expect(defaulted).toEqual({ ...pool, ipipMode: 'Never' });
    expect(pool).toEqual(copy);
  });
});

describe('validateIPPool', () => {
  it.each<[string, IPPool]>([
    ['a minimal IPv4 pool', v4],
    ['a minimal IPv6 pool', v6],
    ['the smallest v4 block size', { ...v4, blockSize: 20 }],
    ['the largest v6 block size', { ...v6, blockSize: 128 }],
    ['a pool smaller than a block when disabled', { ...v4, cidr: '10.0.0.0/28', disabled: true }],
    ['VXLAN on IPv6', { ...v6, vxlanMode: 'CrossSubnet' }],
    ['IPIP on IPv4', { ...v4, ipipMode: 'Always' }],
    ['a namespace selector on a Workload-only pool', { ...v4, allowedUses: ['Workload'], namespaceSelector: 'team == "a"' }],
    ['a LoadBalancer pool', { ...v4, allowedUses: ['LoadBalancer'], nodeSelector: 'all()' }],
    ['a Tunnel-only pool', { ...v4, allowedUses: ['Tunnel'] }],
    ['an explicit node selector', { ...v4, nodeSelector: '!has(edge) && zone in {"a", "b",}' }],
  ])('accepts %s', (_, pool) => {
    expect(ipPoolProblems(pool)).toEqual([]);
    expect(validateIPPool(pool)).toEqual(applyIPPoolDefaults(pool));
  });

  it.each<[string, IPPool, string]>([
    ['an empty name', { ...v4, name: '' }, 'name must not be empty'],
    ['an unparsable CIDR', { ...v4, cidr: '10.0.0/16' }, 'cidr "10.0.0/16" is not a valid CIDR'],
    ['a CIDR over 48 characters', { ...v6, cidr: 'fd00:0000:0000:0000:0000:0000:255.255.255.255/128' }, 'cidr is longer than 48 characters'],
    ['host bits in the CIDR', { ...v4, cidr: '10.0.0.1/16' }, 'cidr 10.0.0.1/16 is not strictly masked (host bits set)'],
    ['an IPv4 link-local overlap', { ...v4, cidr: '169.254.0.0/24' }, 'cidr 169.254.0.0/24 overlaps the link-local range 169.254.0.0/16'],
    ['a pool containing link-local', { ...v4, cidr: '169.0.0.0/8' }, 'cidr 169.0.0.0/8 overlaps the link-local range 169.254.0.0/16'],
    ['an IPv6 link-local overlap', { ...v6, cidr: 'fe80::/64' }, 'cidr fe80::/64 overlaps the link-local range fe80::/10'],
    ['a v4 block size below 20', { ...v4, blockSize: 19 }, 'blockSize 19 is outside 20–32 for IPv4'],
    ['a v4 block size above 32', { ...v4, blockSize: 33 }, 'blockSize 33 is outside 20–32 for IPv4'],
    ['a v6 block size below 116', { ...v6, blockSize: 115 }, 'blockSize 115 is outside 116–128 for IPv6'],
    ['a v6 block size of 26', { ...v6, blockSize: 26 }, 'blockSize 26 is outside 116–128 for IPv6'],
    ['a fractional block size', { ...v4, blockSize: 26.5 }, 'blockSize 26.5 is outside 20–32 for IPv4'],
    ['a pool smaller than its blocks', { ...v4, cidr: '10.0.0.0/28' }, 'cidr prefix /28 is longer than blockSize 26 (allowed only on a disabled pool)'],
    ['IPIP on IPv6', { ...v6, ipipMode: 'CrossSubnet' }, 'ipipMode is not supported on IPv6 pools'],
    ['IPIP with VXLAN', { ...v4, ipipMode: 'Always', vxlanMode: 'Always' }, 'ipipMode and vxlanMode cannot both be enabled'],
    ['an unknown IPIP mode', { ...v4, ipipMode: 'Sometimes' as 'Always' }, 'ipipMode "Sometimes" is not one of Never, Always, CrossSubnet'],
    ['an unknown VXLAN mode', { ...v4, vxlanMode: 'always' as 'Always' }, 'vxlanMode "always" is not one of Never, Always, CrossSubnet'],
    ['an unknown assignment mode', { ...v4, assignmentMode: 'Auto' as 'Manual' }, 'assignmentMode "Auto" is not one of Automatic, Manual'],
    ['an unknown use', { ...v4, allowedUses: ['Workload', 'Pods' as 'Workload'] }, 'allowedUses has unknown use "Pods"'],
    ['a repeated use', { ...v4, allowedUses: ['Workload', 'Workload'] }, 'allowedUses lists a use more than once'],
    ['LoadBalancer with Workload', { ...v4, allowedUses: ['LoadBalancer', 'Workload'] }, 'LoadBalancer cannot be combined with other allowedUses'],
    ['IPIP on a LoadBalancer pool', { ...v4, allowedUses: ['LoadBalancer'], ipipMode: 'Always' }, 'ipipMode must be Never on a LoadBalancer pool'],
    ['BGP export disabled on a LoadBalancer pool', { ...v4, allowedUses: ['LoadBalancer'], disableBGPExport: true }, 'disableBGPExport must be false on a LoadBalancer pool'],
    ['a node selector on a LoadBalancer pool', { ...v4, allowedUses: ['LoadBalancer'], nodeSelector: 'has(x)' }, 'nodeSelector must be all() on a LoadBalancer pool'],
    ['global() in nodeSelector', { ...v4, nodeSelector: 'global()' }, 'nodeSelector must not use global()'],
    ['global() nested in nodeSelector', { ...v4, nodeSelector: 'has(a) || !global()' }, 'nodeSelector must not use global()'],
    ['an unparsable nodeSelector', { ...v4, nodeSelector: 'zone ==' }, 'nodeSelector does not parse: expected a string but found end of input at position 7 in selector "zone =="'],
    ['a nodeSelector over 1024 characters', { ...v4, nodeSelector: `has(${'a'.repeat(1030)})` }, 'nodeSelector is longer than 1024 characters'],
    ['global() in namespaceSelector', { ...v4, allowedUses: ['Workload'], namespaceSelector: 'global()' }, 'namespaceSelector must not use global()'],
    ['an unparsable namespaceSelector', { ...v4, allowedUses: ['Workload'], namespaceSelector: 'a in {' }, 'namespaceSelector does not parse: expected a string or "}" but found end of input at position 6 in selector "a in {"'],
    ['a namespaceSelector on a default (Tunnel) pool', { ...v4, namespaceSelector: 'has(a)' }, 'namespaceSelector is not allowed on a pool with the Tunnel use'],
  ])('rejects %s', (_, pool, problem) => {
    expect(ipPoolProblems(pool)).toEqual([problem]);
    expect(() => validateIPPool(pool)).toThrow(IPPoolValidationError);
  });

  it('lists every problem at once in a typed error', () => {
    const pool: IPPool = { name: 'bad', cidr: 'fd00::1/64', blockSize: 26, ipipMode: 'Always', vxlanMode: 'Always', nodeSelector: 'global()' };
    let caught: unknown;
    try {
      validateIPPool(pool);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).toBeInstanceOf(IPPoolValidationError);
    expect((caught as IPPoolValidationError).poolName).toBe('bad');
    expect((caught as IPPoolValidationError).problems).toEqual([
      'cidr fd00::1/64 is not strictly masked (host bits set)',
      'blockSize 26 is outside 116–128 for IPv6',
      'ipipMode is not supported on IPv6 pools',
      'ipipMode and vxlanMode cannot both be enabled',
      'nodeSelector must not use global()',
    ]);
  });
});
