import { describe, expect, it } from 'vitest';
import { type AllocationRecord } from '../../src/check/allocation-record.js';
import { classifyAllocation, type ClassifyContext, type Classification } from '../../src/check/classify-allocation.js';

const record = (over: Partial<AllocationRecord>): AllocationRecord => ({
  ip: '10.0.0.5',
  block: '10.0.0.0/26',
  ordinal: 5,
  sequenceNumber: 7n,
  attrs: {},
  alternateAttrs: {},
  node: 'node-a',
  borrowed: false,
  coolingDown: false,
  ...over,
});

const ctx: ClassifyContext = {
  nodes: new Set(['node-a']),
  pods: new Map([
    ['ns/live', { namespace: 'ns', name: 'live', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.5'] }],
    ['ns/done', { namespace: 'ns', name: 'done', phase: 'Failed', ips: [] }],
    ['ns/moved', { namespace: 'ns', name: 'moved', nodeName: 'node-b', phase: 'Running', ips: ['10.0.0.5'] }],
    ['ns/new', { namespace: 'ns', name: 'new', nodeName: 'node-a', phase: 'Pending' }],
    ['ns/other', { namespace: 'ns', name: 'other', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.6'] }],
  ]),
  services: [{ namespace: 'ns', name: 'svc', ingressIPs: ['10.0.0.5'] }, { namespace: 'ns', name: 'pending' }],
  duplicateIPs: new Set(['10.0.0.99']),
};

const pod = (name: string): Record<string, string> => ({ namespace: 'ns', pod: name, node: 'node-a' });

describe('classifyAllocation', () => {
  it.each<[string, Partial<AllocationRecord>, Classification, boolean]>([
    ['a Windows-reserved ordinal, never releasable', { handle: 'windows-reserved-ipam-handle' }, 'windows-reserved', false],
    ['an address in cooldown', { coolingDown: true, attrs: pod('gone') }, 'cooldown', false],
    ['a duplicate', { ip: '10.0.0.99', attrs: pod('live') }, 'duplicate', false],
    ['an IPv4 tunnel of a live node', { handle: 'ipip-tunnel-addr-node-a' }, 'tunnel', false],
    ['an IPv6 tunnel of a live node (calicoctl calls it a leak)', { ip: 'fd00::1', handle: 'wireguard-v6-tunnel-addr-node-a' }, 'tunnel', false],
    ['a tunnel of a deleted node', { handle: 'vxlan-tunnel-addr-node-x' }, 'leak', true],
    ['a tunnel known by its type attribute', { attrs: { type: 'vxlanTunnelAddress', node: 'node-x' } }, 'leak', true],
    ['a live Service address', { handle: 'lb-abc', attrs: { service: 'svc', namespace: 'ns', type: 'LoadBalancer' } }, 'load-balancer', false],
    ['a Service not yet showing its address', { ip: '10.0.0.7', attrs: { service: 'pending', namespace: 'ns', type: 'LoadBalancer' } }, 'load-balancer', false],
    ['a deleted Service address', { ip: '10.0.0.7', attrs: { service: 'gone', namespace: 'ns', type: 'LoadBalancer' } }, 'leak', true],
    ['a live pod address', { attrs: pod('live') }, 'workload', false],
    ['a pod that has not reported IPs', { attrs: pod('new') }, 'workload', false],
    ['a completed pod', { attrs: pod('done') }, 'completed-pod', true],
    ['a deleted pod', { attrs: pod('gone') }, 'leak', true],
    ['a pod rescheduled to another node', { attrs: pod('moved') }, 'leak', true],
    ['a pod that uses another address', { attrs: pod('other') }, 'leak', true],
    ['a KubeVirt VM address', { attrs: { namespace: 'ns', 'vmi-name': 'vm' } }, 'unverified', false],
    ['an allocation without metadata', {}, 'unverified', false],
  ])('classifies %s', (_what, over, classification, releasable) => {
    const verdict = classifyAllocation(record(over), ctx);
    expect([verdict.classification, verdict.releasable]).toEqual([classification, releasable]);
  });

  it('never releases pod or Service addresses when their lists are unknown', () => {
    const blind = { ...ctx, pods: undefined, services: undefined };
    expect(classifyAllocation(record({ attrs: pod('gone') }), blind)).toMatchObject({ classification: 'unverified', releasable: false });
    expect(classifyAllocation(record({ attrs: { service: 'gone', namespace: 'ns' } }), blind)).toMatchObject({ classification: 'unverified', releasable: false });
  });
});
