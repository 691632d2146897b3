import { describe, expect, it } from 'vitest';
import { CodecError, decodeEtcd, encodeEtcd, etcdAffinityPrefixes, etcdBlockPrefix, etcdKeyForAffinity, etcdKeyForBlock, etcdKeyForHandle, etcdKeyForIPAMConfig, etcdKeyForIPPool, etcdKeyForIPReservation, etcdKeyForNode, parseEtcdKey } from '../../src/index.js';

describe('etcd key builders', () => {
  it.each([
    [etcdKeyForBlock('10.0.0.0/26'), '/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-26'],
    [etcdKeyForBlock('fd00::/122'), '/calico/ipam/v2/assignment/ipv6/block/fd00::-122'],
    [etcdKeyForBlock('2001:db8:0:1::40/122'), '/calico/ipam/v2/assignment/ipv6/block/2001:db8:0:1::40-122'],
    [etcdKeyForBlock('::ffff:10.0.0.0/122'), '/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-26'],
    [etcdKeyForAffinity({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26' }), '/calico/ipam/v2/host/node-a/ipv4/block/10.0.0.0-26'],
    [etcdKeyForAffinity({ host: 'load-balancer', type: 'virtual', cidr: 'fd00::/122' }), '/calico/ipam/v2/virtual/load-balancer/ipv6/block/fd00::-122'],
    [etcdKeyForHandle('K8s.Handle'), '/calico/ipam/v2/handle/K8s.Handle'],
    [etcdKeyForIPAMConfig(), '/calico/ipam/v2/config'],
    [etcdKeyForIPPool('p1'), '/calico/resources/v3/projectcalico.org/ippools/p1'],
    [etcdKeyForIPReservation('r1'), '/calico/resources/v3/projectcalico.org/ipreservations/r1'],
    [etcdKeyForNode('n1'), '/calico/resources/v3/projectcalico.org/nodes/n1'],
  ])('builds %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each([
    () => etcdKeyForAffinity({ host: 'a/b', type: 'host', cidr: '10.0.0.0/26' }),
    () => etcdKeyForAffinity({ host: '', type: 'host', cidr: '10.0.0.0/26' }),
    () => etcdKeyForBlock('10.0.0.0'),
    () => etcdKeyForHandle(''),
    () => etcdKeyForIPPool('a/b'),
  ])('rejects input that cannot make a key (%#)', (build) => {
    expect(build).toThrow(CodecError);
  });
});

describe('etcd list prefixes', () => {
  it.each([
    [etcdBlockPrefix(), '/calico/ipam/v2/assignment/'],
    [etcdBlockPrefix(4), '/calico/ipam/v2/assignment/ipv4/'],
    [etcdBlockPrefix(6), '/calico/ipam/v2/assignment/ipv6/'],
  ])('lists blocks under %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each([
    [{}, ['/calico/ipam/v2/host/', '/calico/ipam/v2/virtual/']],
    [{ type: 'virtual' as const }, ['/calico/ipam/v2/virtual/']],
    [{ host: 'n1' }, ['/calico/ipam/v2/host/n1/', '/calico/ipam/v2/virtual/n1/']],
    [{ host: 'n1', type: 'host' as const, ipVersion: 6 as const }, ['/calico/ipam/v2/host/n1/ipv6/block/']],
  ])('lists affinities for %j under %j', (options, expected) => {
    expect(etcdAffinityPrefixes(options)).toEqual(expected);
  });

  it('makes host prefixes that do not match a host whose name extends another', () => {
    const [prefix] = etcdAffinityPrefixes({ host: 'n1', type: 'host' });
    expect(etcdKeyForAffinity({ host: 'n10', type: 'host', cidr: '10.0.0.0/26' }).startsWith(prefix!)).toBe(false);
  });
});

describe('parseEtcdKey', () => {
  it.each([
    ['/calico/ipam/v2/assignment/ipv6/block/fd00::-122', { kind: 'IPAMBlock', cidr: 'fd00::/122' }],
    ['/calico/ipam/v2/@/n1/ipv4/block/10.0.0.0-26', { kind: 'BlockAffinity', key: { host: 'n1', type: 'host', cidr: '10.0.0.0/26' } }],
    ['/calico/ipam/v2/handle/a/b', { kind: 'IPAMHandle', handleId: 'a/b' }],
    ['/calico/ipam/v2/host/n1', { kind: 'IPAMHost', host: 'n1' }],
    ['/calico/resources/v3/projectcalico.org/nodes/n1', { kind: 'Node', name: 'n1' }],
  ])('reads %s', (key, expected) => {
    expect(parseEtcdKey(key)).toEqual(expected);
  });

  it.each([
    '/calico/ipam/v2/assignment/ipv4/block/10.0.0.0',
    '/calico/ipam/v2/assignment/ipv6/block/10.0.0.0-26',
    '/calico/ipam/v2/pod/n1/ipv4/block/10.0.0.0-26',
    '/calico/ipam/v2/handle/',
    '/calico/resources/v3/projectcalico.org/felixconfigurations/default',
    'calico/ipam/v2/config',
  ])('rejects %s', (key) => {
    expect(() => parseEtcdKey(key)).toThrow(CodecError);
  });
});

describe('decodeEtcd errors', () => {
  it('names the key when a value is malformed', () => {
    expect(() => decodeEtcd('/calico/ipam/v2/handle/h', '{"block":')).toThrow(/^etcd key \/calico\/ipam\/v2\/handle\/h: invalid JSON at position 9/);
  });

  it('rejects a block whose value CIDR differs from its key', () => {
    const value = '{"cidr":"10.0.0.4/30","allocations":[null,null,null,null],"unallocated":[0,1,2,3],"attributes":[],"sequenceNumber":1,"deleted":false}';
    expect(() => decodeEtcd('/calico/ipam/v2/assignment/ipv4/block/10.0.0.8-30', value)).toThrow('value.cidr:');
  });

  it('refuses Node and host-marker keys, which are not wire kinds', () => {
    expect(() => decodeEtcd('/calico/resources/v3/projectcalico.org/nodes/n1', '{}')).toThrow('Node keys are not wire-kind entries');
    expect(() => decodeEtcd('/calico/ipam/v2/host/n1', '{}')).toThrow('IPAMHost keys are not wire-kind entries');
  });

  it('refuses an unknown kind on encode', () => {
    expect(() => encodeEtcd('Pod' as never, {} as never)).toThrow('kind: "Pod" is not a wire kind');
  });
});
