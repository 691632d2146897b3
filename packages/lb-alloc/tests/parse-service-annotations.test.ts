import type { IPPool } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { ServiceAnnotationError } from '../src/errors.js';
import type { LbService } from '../src/service/lb-service.js';
import { parseServiceAnnotations } from '../src/service/parse-service-annotations.js';

const pools: IPPool[] = [
  { name: 'lb-v4', cidr: '10.96.100.0/24', allowedUses: ['LoadBalancer'] },
  { name: 'lb-v6', cidr: 'fd00:10:96::/120', allowedUses: ['LoadBalancer'] },
];
const svc = (annotations: Record<string, string>, loadBalancerIP?: string): LbService => ({
  uid: 'u',
  name: 'web',
  namespace: 'shop',
  type: 'LoadBalancer',
  annotations,
  ipFamilies: ['IPv4'],
  ingressIPs: [],
  ...(loadBalancerIP === undefined ? {} : { loadBalancerIP }),
});
const V4 = 'projectcalico.org/ipv4pools';
const V6 = 'projectcalico.org/ipv6pools';
const IPS = 'projectcalico.org/loadBalancerIPs';

describe('parseServiceAnnotations (design/calico-callers.md#service-inputs)', () => {
  it.each([
    { title: 'nothing', annotations: {}, lbIP: undefined, expected: {} },
    { title: 'pool names resolved to CIDRs', annotations: { [V4]: '["lb-v4"]', [V6]: '["lb-v6"]' }, lbIP: undefined, expected: { ipv4Pools: ['10.96.100.0/24'], ipv6Pools: ['fd00:10:96::/120'] } },
    { title: 'CIDRs normalised to the network', annotations: { [V4]: '["10.1.2.3/16"]' }, lbIP: undefined, expected: { ipv4Pools: ['10.1.0.0/16'] } },
    { title: 'empty arrays read as absent', annotations: { [V4]: '[]', [IPS]: '[]' }, lbIP: undefined, expected: {} },
    { title: 'addresses canonicalised', annotations: { [IPS]: '["10.96.100.5","FD00:10:96:0::5"]' }, lbIP: undefined, expected: { addresses: ['10.96.100.5', 'fd00:10:96::5'], addressSource: 'annotation' } },
    { title: 'spec.loadBalancerIP used without the annotation', annotations: {}, lbIP: '10.96.100.9', expected: { addresses: ['10.96.100.9'], addressSource: 'spec' } },
    { title: 'the annotation wins over spec.loadBalancerIP', annotations: { [IPS]: '["10.96.100.8"]' }, lbIP: '10.96.100.9', expected: { addresses: ['10.96.100.8'], addressSource: 'annotation' } },
  ])('parses $title', ({ annotations, lbIP, expected }) => {
    expect(parseServiceAnnotations(svc(annotations, lbIP), pools)).toEqual(expected);
  });

  it.each([
    { annotations: { [IPS]: 'invalid' }, lbIP: undefined, message: /projectcalico\.org\/loadBalancerIPs: .*JSON/ },
    { annotations: { [V4]: '{"a":1}' }, lbIP: undefined, message: 'projectcalico.org/ipv4pools: expected a JSON array of strings' },
    { annotations: { [V4]: '["nope"]' }, lbIP: undefined, message: 'error parsing pool "nope": invalid CIDR address: nope' },
    { annotations: { [V4]: '["lb-v6"]' }, lbIP: undefined, message: '"lb-v6" isn\'t a IPv4 address' },
    { annotations: { [V6]: '["10.0.0.0/8"]' }, lbIP: undefined, message: '"10.0.0.0/8" isn\'t a IPv6 address' },
    { annotations: { [IPS]: '["10.0.0.256"]' }, lbIP: undefined, message: 'could not parse 10.0.0.256 as a valid IP address' },
    { annotations: { [IPS]: '["10.0.0.1","10.0.0.2","fd00::1"]' }, lbIP: undefined, message: 'at max only one ipv4 and one ipv6 address can be specified. Received 2 ipv4 and 1 ipv6 addresses' },
    { annotations: {}, lbIP: 'bogus', message: 'invalid IP in spec.loadBalancerIP: bogus' },
  ])('rejects $annotations / $lbIP with a ServiceAnnotationError', ({ annotations, lbIP, message }) => {
    let caught: unknown;
    try {
      parseServiceAnnotations(svc(annotations, lbIP), pools);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ServiceAnnotationError);
    expect((caught as ServiceAnnotationError).service).toBe('shop/web');
    if (typeof message === 'string') expect((caught as Error).message).toBe(message);
    else expect((caught as Error).message).toMatch(message);
  });
});
