import fc from 'fast-check';
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

describe('parseEtcdKey read by segments', () => {
  // The expressions the segment reader replaced (design/models.md, "Addresses without regular expressions").
  const BLOCK_KEY = /^\/calico\/ipam\/v2\/assignment\/ipv([46])\/block\/([^/]+)$/;
  const AFFINITY_KEY = /^\/calico\/ipam\/v2\/(host|virtual|@)\/([^/]+)\/ipv([46])\/block\/([^/]+)$/;
  const IPAM_HOST_KEY = /^\/calico\/ipam\/v2\/host\/([^/]+)$/;
  const RESOURCE_KEY = /^\/calico\/resources\/v3\/projectcalico\.org\/(ippools|ipreservations|nodes)\/([^/]+)$/;

  /** The parts the expressions took from a key (the CIDR still to be read), or undefined when none matched. */
  function byExpressions(key: string): Record<string, string> | undefined {
    const block = BLOCK_KEY.exec(key);
    if (block !== null) return { kind: 'IPAMBlock' };
    const affinity = AFFINITY_KEY.exec(key);
    if (affinity !== null) return { kind: 'BlockAffinity', host: affinity[2] ?? '', type: affinity[1] === 'virtual' ? 'virtual' : 'host' };
    const host = IPAM_HOST_KEY.exec(key);
    if (host !== null) return { kind: 'IPAMHost', host: host[1] ?? '' };
    const resource = RESOURCE_KEY.exec(key);
    if (resource !== null) return { kind: resource[1] === 'ippools' ? 'IPPool' : resource[1] === 'ipreservations' ? 'IPReservation' : 'Node', name: resource[2] ?? '' };
    return undefined;
  }

  it('reads exactly the keys the expressions matched, with the same parts', () => {
    const segment = fc.constantFrom('calico', 'ipam', 'v2', 'assignment', 'ipv4', 'ipv6', 'ipv5', 'block', 'host', 'virtual', '@', 'node-a', '10-0-0-0-26', 'fd00--122', 'resources', 'v3', 'projectcalico.org', 'ippools', 'ipreservations', 'nodes', 'constructor', '', 'a b', 'x\n');
    const key = fc.oneof(
      fc.tuple(fc.constantFrom('/calico/ipam/v2/', '/calico/resources/v3/projectcalico.org/', '/calico/ipam/v2/assignment/', '/calico/'), fc.array(segment, { maxLength: 6 })).map(([p, s]) => p + s.join('/')),
      fc.constantFrom('/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-26', '/calico/ipam/v2/host/node-a/ipv4/block/10.0.0.0-26', '/calico/ipam/v2/@/node-a/ipv6/block/fd00::-122', '/calico/ipam/v2/host/node-a', '/calico/resources/v3/projectcalico.org/nodes/n1', '/calico/ipam/v2/host//ipv4/block/10.0.0.0-26'),
    );
    let read = 0;
    fc.assert(
      fc.property(key, (k) => {
        const expected = byExpressions(k);
        let got: ReturnType<typeof parseEtcdKey>;
        try {
          got = parseEtcdKey(k);
        } catch (err) {
          expect(err).toBeInstanceOf(CodecError);
          // Refused as no key of the layout exactly when no expression matched; else the CIDR or its family was wrong.
          expect(String(err).includes('is not a Calico IPAM etcd key')).toBe(expected === undefined);
          return;
        }
        read += 1;
        expect(expected).toBeDefined();
        expect(got.kind).toBe(expected?.['kind']);
        if (got.kind === 'BlockAffinity') expect({ host: got.key.host, type: got.key.type }).toStrictEqual({ host: expected?.['host'], type: expected?.['type'] });
        if (got.kind === 'IPAMHost') expect(got.host).toBe(expected?.['host']);
        if (got.kind === 'IPPool' || got.kind === 'IPReservation' || got.kind === 'Node') expect(got.name).toBe(expected?.['name']);
      }),
      { numRuns: 6000 },
    );
    expect(read).toBeGreaterThan(200);
  });
});
