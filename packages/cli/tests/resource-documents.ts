// calicoctl-style documents in the shapes of Calico's resource reference examples, for the
// get/create/apply/replace/delete tests (written out to files by the tests themselves).

export const POOL = {
  apiVersion: 'projectcalico.org/v3',
  kind: 'IPPool',
  metadata: { name: 'my.ippool-1' },
  spec: {
    cidr: '10.1.0.0/16',
    blockSize: 26,
    ipipMode: 'CrossSubnet',
    vxlanMode: 'Never',
    natOutgoing: true,
    disabled: false,
    nodeSelector: 'all()',
    allowedUses: ['Workload', 'Tunnel'],
  },
};

export const RESERVATION = {
  apiVersion: 'projectcalico.org/v3',
  kind: 'IPReservation',
  metadata: { name: 'my-ipreservation-1' },
  spec: { reservedCIDRs: ['10.1.0.0/28', '10.1.5.1'] },
};

export const IPAM_CONFIG = {
  apiVersion: 'projectcalico.org/v3',
  kind: 'IPAMConfiguration',
  metadata: { name: 'default' },
  spec: { strictAffinity: true, maxBlocksPerHost: 4, autoAllocateBlocks: true },
};

export const NODE = {
  apiVersion: 'projectcalico.org/v3',
  kind: 'Node',
  metadata: { name: 'node-hostname' },
  spec: {
    bgp: { asNumber: 64512, ipv4Address: '10.244.0.1/24', ipv6Address: '2001:db8:85a3::8a2e:370:7334/120', ipv4IPIPTunnelAddr: '192.168.0.1' },
    orchRefs: [{ nodeName: 'node-hostname', orchestrator: 'k8s' }],
  },
};

/** The same four as one YAML file of `---`-separated documents, block style as the docs write them. */
export const MULTI_DOCUMENT_YAML = `apiVersion: projectcalico.org/v3
kind: IPPool
metadata:
  name: my.ippool-1
spec:
  cidr: 10.1.0.0/16
  blockSize: 26
  ipipMode: CrossSubnet
  vxlanMode: Never
  natOutgoing: true
  disabled: false
  nodeSelector: all()
  allowedUses:
    - Workload
    - Tunnel
---
apiVersion: projectcalico.org/v3
kind: IPReservation
metadata:
  name: my-ipreservation-1
spec:
  reservedCIDRs:
    - 10.1.0.0/28
    - 10.1.5.1
---
apiVersion: projectcalico.org/v3
kind: IPAMConfiguration
metadata:
  name: default
spec:
  strictAffinity: true
  maxBlocksPerHost: 4
  autoAllocateBlocks: true
---
# a comment between documents, as hand-written files have
apiVersion: projectcalico.org/v3
kind: Node
metadata:
  name: node-hostname
spec:
  bgp:
    asNumber: 64512
    ipv4Address: 10.244.0.1/24
    ipv6Address: 2001:db8:85a3::8a2e:370:7334/120
    ipv4IPIPTunnelAddr: 192.168.0.1
  orchRefs:
    - nodeName: node-hostname
      orchestrator: k8s
`;

/** A pool document with `spec` fields replaced. */
export function pool(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'projectcalico.org/v3', kind: 'IPPool', metadata: { name }, spec };
}
