import { describe, expect, it } from 'vitest';
import { decodeEtcd, decodeV1, decodeV3, encodeEtcd, encodeV1, encodeV3, parseWireJson, stringifyWireJson } from '../../src/index.js';

// Calico's own test objects hold /26 blocks whose `allocations` has 0 or 1 entries. Each is kept
// as stored: decoded, and re-encoded to the same bytes.

const shortSpecs: [string, string][] = [
  [
    'no entries',
    '"cidr":"10.0.0.0/26","affinity":"host:node-a","%CLAIM%":"2026-08-22T13:33:20Z","allocations":[],"unallocated":[],"attributes":[],' +
      '"sequenceNumber":0,"sequenceNumberForAllocation":{},"deleted":false',
  ],
  [
    'one entry',
    '"cidr":"10.0.0.64/26","affinity":"host:node-b","%CLAIM%":"2026-08-22T13:33:20Z","allocations":[0],"unallocated":[1,2,3],' +
      '"attributes":[{"handle_id":"k8s-pod-network.c1","secondary":{"namespace":"default","pod":"web-0"}}],' +
      '"sequenceNumber":5,"sequenceNumberForAllocation":{"0":4},"deleted":false',
  ],
];

const v1Annotation = `"annotations":{"projectcalico.org/metadata":${JSON.stringify('{"creationTimestamp":null}')}}`;
const v1 = (spec: string, name: string): string =>
  `{"apiVersion":"crd.projectcalico.org/v1","kind":"IPAMBlock","metadata":{"name":"${name}","resourceVersion":"7",${v1Annotation}},` +
  `"spec":{${spec.replace('%CLAIM%', 'affinityClaimTime')},"strictAffinity":false}}`;
const v3 = (spec: string, name: string): string =>
  `{"apiVersion":"projectcalico.org/v3","kind":"IPAMBlock","metadata":{"name":"${name}","resourceVersion":"7"},"spec":{${spec.replace('%CLAIM%', 'affinityClaimTime')},"strictAffinity":false}}`;
const etcdValue = (spec: string): string => `{${spec.replace('%CLAIM%', 'affinity_claim_time')}}`;
const nameOf = (spec: string): string => (spec.includes('10.0.0.64/26') ? '10-0-0-64-26' : '10-0-0-0-26');
const keyOf = (spec: string): string => `/calico/ipam/v2/assignment/ipv4/block/${nameOf(spec).replace(/^(\d+)-(\d+)-(\d+)-(\d+)-(\d+)$/, '$1.$2.$3.$4-$5')}`;

describe('blocks whose allocations array is shorter than the block', () => {
  it.each(shortSpecs)('v1 with %s decodes and re-encodes byte for byte', (_name, spec) => {
    const text = v1(spec, nameOf(spec));
    const parsed = parseWireJson(text);
    const block = decodeV1('IPAMBlock', parsed);
    expect(block.allocations.length).toBeLessThan(64);
    expect(stringifyWireJson(encodeV1('IPAMBlock', block))).toBe(stringifyWireJson(parsed));
  });

  it.each(shortSpecs)('v3 with %s decodes and re-encodes byte for byte', (_name, spec) => {
    const text = v3(spec, nameOf(spec));
    const parsed = parseWireJson(text);
    const block = decodeV3('IPAMBlock', parsed);
    expect(stringifyWireJson(encodeV3('IPAMBlock', block))).toBe(stringifyWireJson(parsed));
  });

  it.each(shortSpecs)('etcd with %s decodes and re-encodes to the same key and value bytes', (_name, spec) => {
    const key = keyOf(spec);
    const value = etcdValue(spec);
    const decoded = decodeEtcd(key, value);
    expect(decoded.kind).toBe('IPAMBlock');
    const encoded = encodeEtcd(decoded.kind, decoded.model);
    expect(encoded).toEqual({ key, value });
  });

  it('keeps exactly the entries that were stored', () => {
    const block = decodeV3('IPAMBlock', parseWireJson(v3(shortSpecs[1]?.[1] ?? '', '10-0-0-64-26')));
    expect(block.allocations).toEqual([0]);
    expect(block.unallocated).toEqual([1, 2, 3]);
    expect(block.attributes).toEqual([{ handleId: 'k8s-pod-network.c1', activeOwnerAttrs: { namespace: 'default', pod: 'web-0' } }]);
  });
});
