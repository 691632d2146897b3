import type { IPPool } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { needsStatusUpdate, planAssignment, targetCount } from '../src/controller/plan-assignment.js';
import { planReleases } from '../src/controller/plan-releases.js';
import type { LbService } from '../src/service/lb-service.js';

const pools: IPPool[] = [
  { name: 'auto', cidr: '10.96.100.0/24', allowedUses: ['LoadBalancer'] },
  { name: 'manual', cidr: '10.96.200.0/24', allowedUses: ['LoadBalancer'], assignmentMode: 'Manual' },
  { name: 'auto6', cidr: 'fd00::/120', allowedUses: ['LoadBalancer'] },
];

describe('planReleases (design/calico-callers.md#per-service-sync, with the per-family pool rule)', () => {
  it.each([
    { title: 'requested addresses keep only themselves', requests: { addresses: ['10.96.100.5'] }, tracked: ['10.96.100.5', '10.96.100.6'], expected: ['10.96.100.6'] },
    { title: 'no annotations keep Automatic-pool addresses', requests: {}, tracked: ['10.96.100.5', 'fd00::5'], expected: [] },
    { title: 'no annotations release Manual-pool addresses', requests: {}, tracked: ['10.96.200.5'], expected: ['10.96.200.5'] },
    { title: 'no annotations keep addresses of a vanished pool', requests: {}, tracked: ['10.50.0.1'], expected: [] },
    { title: 'a v4 annotation releases v4 outside it', requests: { ipv4Pools: ['10.96.200.0/24'] }, tracked: ['10.96.100.5'], expected: ['10.96.100.5'] },
    { title: 'a v4 annotation keeps v4 inside it', requests: { ipv4Pools: ['10.96.200.0/24'] }, tracked: ['10.96.200.5'], expected: [] },
    { title: 'a v6-only annotation leaves v4 to the no-annotation rule', requests: { ipv6Pools: ['fd00::/120'] }, tracked: ['10.96.100.5', 'fd00::5'], expected: [] },
    { title: 'an unparsable tracked address is released', requests: {}, tracked: ['garbage'], expected: ['garbage'] },
  ])('$title', ({ requests, tracked, expected }) => {
    expect(planReleases({ requests, tracked, lbPools: pools })).toEqual(expected);
  });
});

const svc = (ipFamilies: LbService['ipFamilies'], ipFamilyPolicy: string, ingressIPs: string[] = []): LbService => ({
  uid: 'u',
  name: 'web',
  namespace: 'default',
  type: 'LoadBalancer',
  annotations: {},
  ipFamilies,
  ipFamilyPolicy,
  ingressIPs,
});

describe('planAssignment (design/calico-callers.md#per-service-sync, per-family fill)', () => {
  it.each([
    { title: 'SingleStack v4, nothing held', s: svc(['IPv4'], 'SingleStack'), requests: {}, tracked: [], expected: { assign: [], num4: 1, num6: 0 } },
    { title: 'SingleStack v4, v4 held', s: svc(['IPv4'], 'SingleStack'), requests: {}, tracked: ['10.0.0.1'], expected: { assign: [], num4: 0, num6: 0 } },
    { title: 'SingleStack takes the first family only', s: svc(['IPv6', 'IPv4'], 'SingleStack'), requests: {}, tracked: [], expected: { assign: [], num4: 0, num6: 1 } },
    { title: 'dual stack, nothing held', s: svc(['IPv4', 'IPv6'], 'RequireDualStack'), requests: {}, tracked: [], expected: { assign: [], num4: 1, num6: 1 } },
    { title: 'dual stack, v4 held: fills v6', s: svc(['IPv4', 'IPv6'], 'PreferDualStack'), requests: {}, tracked: ['10.0.0.1'], expected: { assign: [], num4: 0, num6: 1 } },
    { title: 'no families', s: svc([], 'SingleStack'), requests: {}, tracked: [], expected: { assign: [], num4: 0, num6: 0 } },
    { title: 'requested addresses replace auto-assignment', s: svc(['IPv4', 'IPv6'], 'RequireDualStack'), requests: { addresses: ['10.0.0.9', 'fd00::9'] }, tracked: ['fd00::9'], expected: { assign: ['10.0.0.9'], num4: 0, num6: 0 } },
  ])('$title', ({ s, requests, tracked, expected }) => {
    expect(planAssignment(s, requests, tracked)).toEqual(expected);
  });

  it.each([
    { s: svc(['IPv4'], 'SingleStack'), requests: {}, expected: 1 },
    { s: svc(['IPv4', 'IPv6'], 'PreferDualStack'), requests: {}, expected: 2 },
    { s: svc(['IPv4'], 'SingleStack'), requests: { addresses: ['10.0.0.1', 'fd00::1'] }, expected: 2 },
  ])('targetCount is $expected', ({ s, requests, expected }) => {
    expect(targetCount(s, requests)).toBe(expected);
  });
});

describe('needsStatusUpdate (design/calico-callers.md#per-service-sync)', () => {
  it.each([
    { ingress: [], tracked: [], expected: false },
    { ingress: ['10.0.0.1'], tracked: ['10.0.0.1'], expected: false },
    { ingress: ['10.0.0.1'], tracked: [], expected: true },
    { ingress: ['10.0.0.2'], tracked: ['10.0.0.1'], expected: true },
    { ingress: ['fd00::1', '10.0.0.1'], tracked: ['10.0.0.1', 'fd00::1'], expected: false },
  ])('ingress $ingress vs tracked $tracked → $expected', ({ ingress, tracked, expected }) => {
    expect(needsStatusUpdate(svc(['IPv4'], 'SingleStack', ingress), tracked)).toBe(expected);
  });
});
