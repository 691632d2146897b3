import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNetConf, type NetConf } from '../../src/index.js';
import { parseCniArgs } from '../../src/config/cni-args.js';
import { allocationRequest } from '../../src/request/allocation-request.js';

const V4 = 'cni.projectcalico.org/ipv4pools';
const conf = (ipam: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): NetConf =>
  parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'n', ipam: { type: 'calico-ipam', ...ipam }, ...extra }));
const noArgs = parseCniArgs('');

describe('allocationRequest', () => {
  it('defaults to IPv4 only from all pools', () => {
    expect(allocationRequest(conf(), noArgs, {})).toEqual({ kind: 'auto', assignIpv4: true, assignIpv6: false, ipv4Pools: [], ipv6Pools: [] });
  });

  it('CNI_ARGS IP= beats runtimeConfig.ips, which beats ipAddrs', () => {
    const c = conf({}, { runtimeConfig: { ips: ['10.0.0.2/24'] } });
    const pod = { 'cni.projectcalico.org/ipAddrs': '["10.0.0.3"]' };
    expect(allocationRequest(c, parseCniArgs('IP=10.0.0.1'), { podAnnotations: pod })).toEqual({ kind: 'explicit', ips: ['10.0.0.1'], source: 'CNI_ARGS' });
    expect(allocationRequest(c, noArgs, { podAnnotations: pod })).toEqual({ kind: 'explicit', ips: ['10.0.0.2'], source: 'runtimeConfig' });
    expect(allocationRequest(conf(), noArgs, { podAnnotations: pod })).toEqual({ kind: 'explicit', ips: ['10.0.0.3'], source: 'ipAddrs' });
  });

  it('takes each pool list from the first non-empty of pod, namespace, config (property)', () => {
    const list = fc.option(fc.array(fc.constantFrom('p1', 'p2', '10.0.0.0/8'), { maxLength: 2 }), { nil: undefined });
    fc.assert(
      fc.property(list, list, fc.array(fc.constantFrom('c1', 'c2'), { maxLength: 2 }), (pod, ns, fromConf) => {
        const req = allocationRequest(
          conf({ ipv4_pools: fromConf }),
          noArgs,
          { podAnnotations: pod === undefined ? {} : { [V4]: JSON.stringify(pod) }, namespaceAnnotations: ns === undefined ? {} : { [V4]: JSON.stringify(ns) } },
        );
        const expected = pod !== undefined && pod.length > 0 ? pod : ns !== undefined && ns.length > 0 ? ns : fromConf;
        expect(req).toMatchObject({ kind: 'auto', ipv4Pools: expected });
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    { pod: '["IPv4","IPv6"]', ns: undefined, v4: true, v6: true },
    { pod: undefined, ns: '["IPv6"]', v4: false, v6: true },
    { pod: '["IPv4"]', ns: '["IPv6"]', v4: true, v6: false },
  ])('ipFamilies pod $pod / namespace $ns', ({ pod, ns, v4, v6 }) => {
    const key = 'cni.projectcalico.org/ipFamilies';
    const req = allocationRequest(conf({ assign_ipv6: 'true' }), noArgs, { podAnnotations: pod === undefined ? {} : { [key]: pod }, namespaceAnnotations: ns === undefined ? {} : { [key]: ns } });
    expect(req).toMatchObject({ kind: 'auto', assignIpv4: v4, assignIpv6: v6 });
  });

  it('refuses a config that requests no family at all', () => {
    expect(() => allocationRequest(conf({ assign_ipv4: 'false' }), noArgs, {})).toThrow('no IP family requested');
  });
});
