import { loadBalancerHandleId } from '@ipamkit/models';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { goTimestamp } from '../src/controller/go-timestamp.js';
import { LbMetrics } from '../src/metrics/lb-metrics.js';

describe('goTimestamp', () => {
  it.each([
    { ms: Date.UTC(2025, 0, 2, 3, 4, 5, 123), expected: '2025-01-02 03:04:05.123 +0000 UTC' },
    { ms: Date.UTC(2025, 0, 2, 3, 4, 5, 120), expected: '2025-01-02 03:04:05.12 +0000 UTC' },
    { ms: Date.UTC(2025, 11, 31, 23, 59, 59, 0), expected: '2025-12-31 23:59:59 +0000 UTC' },
  ])('formats $expected', ({ ms, expected }) => {
    expect(goTimestamp(new Date(ms))).toBe(expected);
  });
});

describe('the LoadBalancer handle (design/calico-callers.md#loadbalancer-handle)', () => {
  it('matches the handle Calico builds for the same Service', () => {
    expect(loadBalancerHandleId({ name: 'test-service', namespace: 'test-namespace', uid: '1234' })).toBe('lb-CcByVDWerSL9WUOKfbkyPBft2m9Xxf822Zvhn2YSpts');
  });
});

describe('LbMetrics', () => {
  it('publishes addresses per pool and pending Services per reason', async () => {
    const registry = new Registry();
    const metrics = new LbMetrics(registry);
    metrics.update({
      ips: ['10.96.100.1', '10.96.100.2', 'fd00::1', '192.0.2.1'],
      pools: [{ name: 'v4', cidr: '10.96.100.0/24' }, { name: 'v6', cidr: 'fd00::/120' }, { name: 'empty', cidr: '10.1.0.0/24' }],
      pending: ['no_pools', 'assign_failed', 'no_pools'],
    });
    const text = await registry.metrics();
    expect(text).toContain('ipamkit_lb_addresses_assigned{ippool="v4"} 2');
    expect(text).toContain('ipamkit_lb_addresses_assigned{ippool="v6"} 1');
    expect(text).toContain('ipamkit_lb_addresses_assigned{ippool="empty"} 0');
    expect(text).toContain('ipamkit_lb_addresses_assigned{ippool=""} 1');
    expect(text).toContain('ipamkit_lb_services_pending{reason="no_pools"} 2');
    expect(text).toContain('ipamkit_lb_services_pending{reason="assign_failed"} 1');
    expect(text).toContain('ipamkit_lb_services_pending{reason="pool_exhausted"} 0');
    metrics.update({ ips: [], pools: [{ name: 'v4', cidr: '10.96.100.0/24' }], pending: [] });
    const after = await registry.metrics();
    expect(after).toContain('ipamkit_lb_addresses_assigned{ippool="v4"} 0');
    expect(after).not.toContain('ippool="v6"');
    expect(after).toContain('ipamkit_lb_services_pending{reason="no_pools"} 0');
  });
});
