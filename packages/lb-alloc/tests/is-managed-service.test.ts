import { describe, expect, it } from 'vitest';
import { hasCalicoRequest, isManagedService } from '../src/service/is-managed-service.js';
import type { LbService } from '../src/service/lb-service.js';

const svc = (over: Partial<LbService> = {}): LbService => ({
  uid: 'u',
  name: 'web',
  namespace: 'default',
  type: 'LoadBalancer',
  annotations: {},
  ipFamilies: ['IPv4'],
  ipFamilyPolicy: 'SingleStack',
  ingressIPs: [],
  ...over,
});
const poolAnnotation = { 'projectcalico.org/ipv4pools': '["p"]' };

describe('isManagedService (design/calico-callers.md#managed-services)', () => {
  it.each([
    { type: 'ClusterIP', mode: 'AllServices', cls: undefined, request: true, managed: false },
    { type: 'LoadBalancer', mode: 'AllServices', cls: undefined, request: false, managed: true },
    { type: 'LoadBalancer', mode: 'AllServices', cls: 'calico', request: false, managed: true },
    { type: 'LoadBalancer', mode: 'AllServices', cls: 'other', request: true, managed: false },
    { type: 'LoadBalancer', mode: 'RequestedServicesOnly', cls: 'calico', request: false, managed: true },
    { type: 'LoadBalancer', mode: 'RequestedServicesOnly', cls: undefined, request: true, managed: true },
    { type: 'LoadBalancer', mode: 'RequestedServicesOnly', cls: 'other', request: true, managed: false },
    { type: 'LoadBalancer', mode: 'RequestedServicesOnly', cls: undefined, request: false, managed: false },
    { type: 'LoadBalancer', mode: 'RequestedServicesOnly', cls: 'other', request: false, managed: false },
    { type: 'LoadBalancer', mode: '', cls: 'calico', request: true, managed: false },
    { type: 'LoadBalancer', mode: 'Bogus', cls: undefined, request: true, managed: false },
  ])('type=$type assignIPs=$mode class=$cls request=$request → $managed', ({ type, mode, cls, request, managed }) => {
    const s = svc({ type, ...(cls === undefined ? {} : { loadBalancerClass: cls }), ...(request ? { annotations: poolAnnotation } : {}) });
    expect(isManagedService(s, mode)).toBe(managed);
  });
});

describe('hasCalicoRequest', () => {
  it.each([
    { input: {}, expected: false },
    { input: { annotations: { 'projectcalico.org/ipv6pools': '["p"]' } }, expected: true },
    { input: { annotations: { 'projectcalico.org/loadBalancerIPs': '[]' } }, expected: true },
    { input: { annotations: { 'projectcalico.org/ipv4pools': '' } }, expected: false },
    { input: { loadBalancerIP: '10.0.0.1' }, expected: true },
    { input: { loadBalancerIP: '' }, expected: false },
    { input: { annotations: { 'example.com/other': 'x' } }, expected: false },
  ])('$input → $expected', ({ input, expected }) => {
    expect(hasCalicoRequest(svc(input))).toBe(expected);
  });
});
