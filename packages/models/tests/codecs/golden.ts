// The JSON examples of design/calico-stored-formats.md, with the document's "…" elisions filled in, in the key
// order Calico writes. Kept as text so that big integers reach the codec unrounded.

export const HANDLE_ID = 'k8s-pod-network.4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';
export const SEQ = '1787405600000000007';
export const HASH_NODE_A = 'PY3TQE2E3XMTETLM2MJO3UITKPFB27YUJ4T4E5XGPEJON3SM4QAA';

// design/calico-stored-formats.md#blocks: 64 ordinals, 0 allocated to a pod, 1 in cooldown, 2..63 free.
const allocations = `[0,1${',null'.repeat(62)}]`;
const unallocated = `[${Array.from({ length: 62 }, (_, i) => i + 2).join(',')}]`;
const attributes =
  `[{"handle_id":"${HANDLE_ID}","secondary":{"namespace":"default","node":"node-a","pod":"web-0","timestamp":"2026-08-22 13:33:20.1 +0000 UTC"}},` +
  '{"releasedAt":"2026-08-22T13:40:00Z"}]';

export function blockSpec(claimTimeName: string, seq = SEQ): string {
  return (
    `"cidr":"10.0.0.0/26","affinity":"host:node-a","${claimTimeName}":"2026-08-22T13:33:20Z",` +
    `"allocations":${allocations},"unallocated":${unallocated},"attributes":${attributes},` +
    `"sequenceNumber":${seq},"sequenceNumberForAllocation":{"0":1787405600000000005,"1":1787405600000000006},"deleted":false`
  );
}

const v1Annotation = (inner: string) => `"annotations":{"projectcalico.org/metadata":${JSON.stringify(inner)}}`;

export const V1_BLOCK = (seq = SEQ) =>
  `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPAMBlock","metadata":{"name":"10-0-0-0-26","resourceVersion":"123456",` +
  `"uid":"3f1b6a52-8c1e-4d2b-9a77-0c5e2f4d1a90",${v1Annotation('{"creationTimestamp":null}')}},` +
  `"spec":{${blockSpec('affinityClaimTime', seq)},"strictAffinity":false}}`;

export const V3_BLOCK = (seq = SEQ) =>
  `{"apiVersion":"projectcalico.org/v3","kind":"IPAMBlock","metadata":{"name":"10-0-0-0-26","resourceVersion":"123456",` +
  `"uid":"3f1b6a52-8c1e-4d2b-9a77-0c5e2f4d1a90"},"spec":{${blockSpec('affinityClaimTime', seq)},"strictAffinity":false}}`;

export const ETCD_BLOCK_KEY = '/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-26';
export const ETCD_BLOCK = (seq = SEQ) => `{${blockSpec('affinity_claim_time', seq)}}`;

const affinityLabels =
  `{"projectcalico.org/affinity-type":"host","projectcalico.org/hostname-hash":"${HASH_NODE_A}","projectcalico.org/ip-version":"4"}`;

export const V1_AFFINITY =
  `{"apiVersion":"crd.projectcalico.org/v1","kind":"BlockAffinity","metadata":{"name":"node-a-10-0-0-0-26","labels":${affinityLabels},` +
  `${v1Annotation(`{"creationTimestamp":null,"labels":${affinityLabels}}`)}},` +
  '"spec":{"state":"confirmed","node":"node-a","type":"host","cidr":"10.0.0.0/26","deleted":"false"}}';

export const V3_AFFINITY =
  `{"apiVersion":"projectcalico.org/v3","kind":"BlockAffinity","metadata":{"name":"node-a-10-0-0-0-26","labels":${affinityLabels}},` +
  '"spec":{"state":"confirmed","node":"node-a","type":"host","cidr":"10.0.0.0/26","deleted":false}}';

export const ETCD_AFFINITY_KEY = '/calico/ipam/v2/host/node-a/ipv4/block/10.0.0.0-26';
export const ETCD_AFFINITY = '{"state":"confirmed","deleted":false}';

export const V1_HANDLE =
  `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPAMHandle","metadata":{"name":"${HANDLE_ID}",${v1Annotation('{"creationTimestamp":null}')}},` +
  `"spec":{"handleID":"${HANDLE_ID}","block":{"10.0.0.0/26":1,"fd00::/122":1},"deleted":false}}`;

export const V3_HANDLE =
  `{"apiVersion":"projectcalico.org/v3","kind":"IPAMHandle","metadata":{"name":"${HANDLE_ID}"},` +
  `"spec":{"handleID":"${HANDLE_ID}","block":{"10.0.0.0/26":1,"fd00::/122":1},"deleted":false}}`;

export const ETCD_HANDLE_KEY = `/calico/ipam/v2/handle/${HANDLE_ID}`;
export const ETCD_HANDLE = '{"block":{"10.0.0.0/26":1,"fd00::/122":1},"deleted":false}';

const configSpec = '{"strictAffinity":false,"autoAllocateBlocks":true,"maxBlocksPerHost":0,"kubeVirtVMAddressPersistence":"Enabled","ipCooldownSeconds":0}';
export const V1_CONFIG = `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPAMConfig","metadata":{"name":"default"},"spec":${configSpec}}`;
export const V3_CONFIG = `{"apiVersion":"projectcalico.org/v3","kind":"IPAMConfiguration","metadata":{"name":"default"},"spec":${configSpec}}`;
export const ETCD_CONFIG_KEY = '/calico/ipam/v2/config';
export const ETCD_CONFIG =
  '{"strict_affinity":true,"auto_allocate_blocks":true,"maxBlocksPerHost":4,"kubeVirtVMAddressPersistence":"Enabled","ipCooldownSeconds":30}';

const poolSpec =
  '{"cidr":"10.0.0.0/16","blockSize":26,"ipipMode":"Never","vxlanMode":"CrossSubnet","natOutgoing":true,"disabled":false,' +
  '"disableBGPExport":false,"nodeSelector":"all()","namespaceSelector":"","allowedUses":["Workload","Tunnel"],"assignmentMode":"Automatic"}';
const poolStatus =
  '{"conditions":[{"type":"Allocatable","status":"True","reason":"OK","message":"","lastTransitionTime":"2026-08-22T13:00:00Z"}]}';
export const V1_POOL = `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPPool","metadata":{"name":"default-ipv4-ippool"},"spec":${poolSpec},"status":${poolStatus}}`;
export const V3_POOL = `{"apiVersion":"projectcalico.org/v3","kind":"IPPool","metadata":{"name":"default-ipv4-ippool"},"spec":${poolSpec},"status":${poolStatus}}`;
export const ETCD_POOL_KEY = '/calico/resources/v3/projectcalico.org/ippools/default-ipv4-ippool';
export const ETCD_POOL = `{"kind":"IPPool","apiVersion":"projectcalico.org/v3","metadata":{"name":"default-ipv4-ippool"},"spec":${poolSpec},"status":${poolStatus}}`;

const reservationSpec = '{"reservedCIDRs":["10.0.0.1/32","10.0.5.0/24"]}';
export const V1_RESERVATION = `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPReservation","metadata":{"name":"reserve-gw"},"spec":${reservationSpec}}`;
export const V3_RESERVATION = `{"apiVersion":"projectcalico.org/v3","kind":"IPReservation","metadata":{"name":"reserve-gw"},"spec":${reservationSpec}}`;
export const ETCD_RESERVATION_KEY = '/calico/resources/v3/projectcalico.org/ipreservations/reserve-gw';
export const ETCD_RESERVATION = `{"kind":"IPReservation","apiVersion":"projectcalico.org/v3","metadata":{"name":"reserve-gw"},"spec":${reservationSpec}}`;
