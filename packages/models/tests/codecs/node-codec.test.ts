import { describe, expect, it } from 'vitest';
import {
  CodecError,
  KUBERNETES_NODE_ANNOTATIONS,
  decodeEtcdNode,
  decodeKubernetesNamespace,
  decodeKubernetesNode,
  encodeEtcdNode,
  kubernetesNodeTunnelAnnotations,
  parseWireJson,
  stringifyWireJson,
} from '../../src/index.js';

const KEY = '/calico/resources/v3/projectcalico.org/nodes/node-a';
const NODE = stringifyWireJson({
  kind: 'Node',
  apiVersion: 'projectcalico.org/v3',
  metadata: { name: 'node-a', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z', labels: { zone: 'a' }, annotations: { note: 'x' } },
  spec: {
    bgp: { ipv4Address: '10.1.0.5/24', ipv6Address: 'fd01::5/64', ipv4IPIPTunnelAddr: '10.0.0.1', asNumber: 64512 },
    ipv4VXLANTunnelAddr: '10.0.0.2',
    ipv6VXLANTunnelAddr: 'fd00::2',
    wireguard: { interfaceIPv4Address: '10.0.0.3', interfaceIPv6Address: 'fd00::3' },
    orchRefs: [{ nodeName: 'node-a', orchestrator: 'k8s' }],
    vxlanTunnelMACAddr: '66:aa:bb:cc:dd:ee',
  },
  status: { wireguardPublicKey: 'key4=', wireguardPublicKeyV6: 'key6=', podCIDRs: ['10.244.0.0/24'] },
});

describe('etcd Node codec', () => {
  it('reads the fields IPAM and the tunnel allocator use', () => {
    expect(decodeEtcdNode(KEY, NODE)).toMatchObject({
      name: 'node-a',
      uid: 'u-1',
      labels: { zone: 'a' },
      annotations: { note: 'x' },
      bgpIPv4Address: '10.1.0.5/24',
      bgpIPv6Address: 'fd01::5/64',
      tunnelAddresses: {
        ipv4IPIPTunnelAddr: '10.0.0.1',
        ipv4VXLANTunnelAddr: '10.0.0.2',
        ipv6VXLANTunnelAddr: 'fd00::2',
        wireguardInterfaceIPv4Address: '10.0.0.3',
        wireguardInterfaceIPv6Address: 'fd00::3',
      },
      wireguardPublicKey: 'key4=',
      wireguardPublicKeyV6: 'key6=',
    });
  });

  it('round-trips every field, including the ones it does not model', () => {
    const encoded = encodeEtcdNode(decodeEtcdNode(KEY, NODE));
    expect(encoded.key).toBe(KEY);
    expect(parseWireJson(encoded.value)).toEqual(parseWireJson(NODE));
  });

  it('removes an emptied bgp or wireguard section but keeps unknown bgp fields', () => {
    const node = decodeEtcdNode(KEY, NODE);
    const { bgpIPv4Address: _v4, bgpIPv6Address: _v6, ...rest } = node;
    const cleared = { ...rest, tunnelAddresses: {} };
    const spec = (parseWireJson(encodeEtcdNode(cleared).value) as { spec: Record<string, unknown> }).spec;
    expect(spec.bgp).toEqual({ asNumber: 64512 });
    expect(spec).not.toHaveProperty('wireguard');
    expect(spec).not.toHaveProperty('ipv4VXLANTunnelAddr');
  });

  it('rejects a value whose name differs from the key, and a non-node key', () => {
    expect(() => decodeEtcdNode('/calico/resources/v3/projectcalico.org/nodes/other', NODE)).toThrow(CodecError);
    expect(() => decodeEtcdNode('/calico/resources/v3/projectcalico.org/nodes/other', NODE)).toThrow('value.metadata.name');
    expect(() => decodeEtcdNode('/calico/ipam/v2/config', NODE)).toThrow('is not a Node key');
  });
});

describe('decodeKubernetesNode', () => {
  const k8sNode = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-a',
      resourceVersion: '42',
      uid: 'k-1',
      labels: { 'kubernetes.io/hostname': 'node-a' },
      annotations: {
        'projectcalico.org/IPv4Address': '10.1.0.5/24',
        'projectcalico.org/IPv4IPIPTunnelAddr': '10.0.0.1',
        'projectcalico.org/IPv6VXLANTunnelAddr': 'fd00::2',
        'projectcalico.org/IPv4WireguardInterfaceAddr': '10.0.0.3',
        'projectcalico.org/WireguardPublicKey': 'key4=',
        'projectcalico.org/IPv4VXLANTunnelAddr': '',
      },
    },
    spec: { podCIDR: '10.244.0.0/24' },
  };

  it('reads labels, the tunnel and BGP annotations and the pod CIDR', () => {
    expect(decodeKubernetesNode(k8sNode)).toEqual({
      name: 'node-a',
      revision: '42',
      uid: 'k-1',
      labels: { 'kubernetes.io/hostname': 'node-a' },
      annotations: k8sNode.metadata.annotations,
      bgpIPv4Address: '10.1.0.5/24',
      tunnelAddresses: { ipv4IPIPTunnelAddr: '10.0.0.1', ipv6VXLANTunnelAddr: 'fd00::2', wireguardInterfaceIPv4Address: '10.0.0.3' },
      wireguardPublicKey: 'key4=',
      podCIDRs: ['10.244.0.0/24'],
    });
  });

  it('prefers spec.podCIDRs over spec.podCIDR', () => {
    expect(decodeKubernetesNode({ ...k8sNode, spec: { podCIDR: 'a', podCIDRs: ['10.244.0.0/24', 'fd10::/64'] } }).podCIDRs).toEqual([
      '10.244.0.0/24',
      'fd10::/64',
    ]);
  });

  it('rejects a node without a name or with non-string labels', () => {
    expect(() => decodeKubernetesNode({ metadata: {} })).toThrow('metadata.name:');
    expect(() => decodeKubernetesNode({ metadata: { name: 'n', labels: { a: 1 } } })).toThrow('metadata.labels["a"]:');
  });

  it('builds the annotation patch for tunnel addresses, removing the unset ones', () => {
    expect(kubernetesNodeTunnelAnnotations({ ipv4IPIPTunnelAddr: '10.0.0.1' })).toEqual({
      [KUBERNETES_NODE_ANNOTATIONS.ipv4IPIPTunnelAddr]: '10.0.0.1',
      'projectcalico.org/IPv4VXLANTunnelAddr': null,
      'projectcalico.org/IPv6VXLANTunnelAddr': null,
      'projectcalico.org/IPv4WireguardInterfaceAddr': null,
      'projectcalico.org/IPv6WireguardInterfaceAddr': null,
    });
  });
});

describe('decodeKubernetesNamespace', () => {
  it('reads the name and labels', () => {
    expect(decodeKubernetesNamespace({ metadata: { name: 'dev', labels: { team: 'a' } } })).toEqual({ name: 'dev', labels: { team: 'a' } });
    expect(decodeKubernetesNamespace({ metadata: { name: 'plain' } })).toEqual({ name: 'plain' });
  });

  it('rejects a namespace that is not an object', () => {
    expect(() => decodeKubernetesNamespace(null)).toThrow('$: expected an object');
  });
});
