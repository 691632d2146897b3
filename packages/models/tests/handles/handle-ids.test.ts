import { describe, expect, it } from 'vitest';
import { cniHandleId, isCniHandleOfNetwork, kubernetesHandleName, loadBalancerHandleId, parseTunnelHandleId, renameTunnelHandleNode, sanitizeHandleId, tunnelHandleId, vmHandleId } from '../../src/handles/handle-ids.js';
import { lengthLimitedId } from '../../src/handles/length-limited-id.js';

describe('lengthLimitedId', () => {
  it.each([
    ['felix', '_2345', 10, 'felix_kMQI'],
    ['felix', '12345678910', 13, 'felix_Y2QCZIS'],
    ['felix', '', 10, 'felix_'],
    ['felix', 'abc', 10, 'felixabc'],
  ])('(%s, %s, %d) is %s', (prefix, suffix, max, expected) => {
    expect(lengthLimitedId(prefix, suffix, max)).toBe(expected);
  });

  it('keeps the whole hash when the room is larger than it', () => {
    const id = lengthLimitedId('p.', 'x'.repeat(200), 128);
    expect(id).toMatch(/^p\._[A-Za-z0-9_-]{43}$/);
  });
});

describe('handle IDs', () => {
  it('builds the LoadBalancer handle of design/calico-callers.md#loadbalancer-handle', () => {
    expect(loadBalancerHandleId({ name: 'test-service', namespace: 'test-namespace', uid: '1234' })).toBe(
      'lb-CcByVDWerSL9WUOKfbkyPBft2m9Xxf822Zvhn2YSpts',
    );
  });

  it('builds and parses tunnel handles, preferring the longer v6 prefix', () => {
    expect(tunnelHandleId('vxlan-v6', 'node-a')).toBe('vxlan-v6-tunnel-addr-node-a');
    expect(parseTunnelHandleId('vxlan-v6-tunnel-addr-node-a')).toEqual({ type: 'vxlan-v6', node: 'node-a' });
    expect(parseTunnelHandleId('vxlan-tunnel-addr-node-a')).toEqual({ type: 'vxlan', node: 'node-a' });
    expect(parseTunnelHandleId('wireguard-v6-tunnel-addr-n')).toEqual({ type: 'wireguard-v6', node: 'n' });
    expect(parseTunnelHandleId('k8s-pod-network.abc')).toBeUndefined();
  });

  it('builds CNI and VM handles and tells a network apart', () => {
    expect(cniHandleId('k8s-pod-network', 'c1')).toBe('k8s-pod-network.c1');
    expect(cniHandleId('', 'c1')).toBe('k8s-pod-network.c1');
    expect(vmHandleId('k8s-pod-network', 'ns', 'vm1')).toBe('k8s-pod-network.vmi.ns.vm1');
    expect(isCniHandleOfNetwork('net-a.c1', 'net-a')).toBe(true);
    expect(isCniHandleOfNetwork('net-ab.c1', 'net-a')).toBe(false);
    expect(isCniHandleOfNetwork('net-a.vmi.ns.vm', 'net-a')).toBe(false);
  });

  it('cuts a handle at the first carriage return', () => {
    expect(sanitizeHandleId('h1\r\nrest')).toBe('h1');
    expect(sanitizeHandleId('h1')).toBe('h1');
  });
});

describe('renameTunnelHandleNode', () => {
  const rename = (node: string): string | undefined => ({ 'Node-A.example.com': 'node-a' })[node];

  it.each([
    ['ipip-tunnel-addr-Node-A.example.com', 'ipip-tunnel-addr-node-a'],
    ['vxlan-tunnel-addr-Node-A.example.com', 'vxlan-tunnel-addr-node-a'],
    ['wireguard-tunnel-addr-Node-A.example.com', 'wireguard-tunnel-addr-node-a'],
    ['vxlan-v6-tunnel-addr-Node-A.example.com', 'vxlan-v6-tunnel-addr-node-a'],
    ['wireguard-v6-tunnel-addr-Node-A.example.com', 'wireguard-v6-tunnel-addr-node-a'],
    ['ipip-tunnel-addr-node-b', 'ipip-tunnel-addr-node-b'],
    ['k8s-pod-network.Node-A.example.com', 'k8s-pod-network.Node-A.example.com'],
    ['lb-Node-A.example.com', 'lb-Node-A.example.com'],
    ['ipip-tunnel-addr-', 'ipip-tunnel-addr-'],
  ])('turns %s into %s', (handleId, expected) => {
    expect(renameTunnelHandleNode(handleId, rename)).toBe(expected);
  });
});

describe('kubernetesHandleName', () => {
  it('lower-cases the handle ID, which keeps its case elsewhere', () => {
    expect(kubernetesHandleName('ipip-tunnel-addr-Node-A')).toBe('ipip-tunnel-addr-node-a');
    expect(kubernetesHandleName('k8s-pod-network.abc')).toBe('k8s-pod-network.abc');
  });
});
