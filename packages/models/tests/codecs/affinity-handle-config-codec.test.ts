import { describe, expect, it } from 'vitest';
import {
  AFFINITY_HOSTNAME_HASH_LABEL,
  CodecError,
  blockAffinityName,
  decodeEtcd,
  decodeV1,
  decodeV3,
  encodeEtcd,
  encodeV1,
  encodeV3,
} from '../../src/index.js';

const v1Affinity = (spec: Record<string, unknown>) => ({
  apiVersion: 'crd.projectcalico.org/v1',
  kind: 'BlockAffinity',
  metadata: { name: 'x' },
  spec: { state: 'confirmed', node: 'node-a', cidr: 'fd00::/122', ...spec },
});

describe('BlockAffinity codecs', () => {
  it.each([
    ['true', true], ['True', true], ['TRUE', true], ['t', true], ['T', true], ['1', true], [true, true],
    ['false', false], ['False', false], ['FALSE', false], ['f', false], ['F', false], ['0', false], ['', false], [undefined, false], [false, false],
  ])('reads v1 deleted %j as %s (Go ParseBool leniency)', (deleted, expected) => {
    expect(decodeV1('BlockAffinity', v1Affinity({ deleted })).deleted).toBe(expected);
  });

  it.each(['yes', 'no', 'on', 2])('rejects v1 deleted %j', (deleted) => {
    expect(() => decodeV1('BlockAffinity', v1Affinity({ deleted }))).toThrow('spec.deleted:');
  });

  it('writes v1 deleted as the string "true" and v3 deleted as a boolean', () => {
    const affinity = { host: 'node-a', type: 'host' as const, cidr: '10.0.0.0/26', state: 'pendingDeletion' as const, deleted: true };
    expect(encodeV1('BlockAffinity', affinity).spec.deleted).toBe('true');
    expect(encodeV3('BlockAffinity', affinity).spec.deleted).toBe(true);
  });

  it('requires a boolean deleted in v3', () => {
    const v3 = { ...v1Affinity({ deleted: 'true' }), apiVersion: 'projectcalico.org/v3' };
    expect(() => decodeV3('BlockAffinity', v3)).toThrow('spec.deleted: expected a boolean');
  });

  it.each([
    [undefined, 'host'], ['', 'host'], ['host', 'host'], ['virtual', 'virtual'],
  ])('reads type %j as %s', (type, expected) => {
    expect(decodeV1('BlockAffinity', v1Affinity({ type })).type).toBe(expected);
  });

  it.each([
    ['state', { state: 'claimed' }],
    ['type', { type: 'pod' }],
    ['node', { node: '' }],
    ['node', { node: undefined }],
    ['cidr', { cidr: 'fd00::/200' }],
  ])('rejects a bad spec.%s', (field, spec) => {
    expect(() => decodeV1('BlockAffinity', v1Affinity(spec))).toThrow(CodecError);
    expect(() => decodeV1('BlockAffinity', v1Affinity(spec))).toThrow(`spec.${field}:`);
  });

  it('reads a legacy empty state as ""', () => {
    expect(decodeV1('BlockAffinity', v1Affinity({ state: '' })).state).toBe('');
  });

  it('names the object by host and CIDR, stamps the three labels and ignores foreign labels', () => {
    const decoded = decodeV1('BlockAffinity', { ...v1Affinity({ type: 'virtual', node: 'load-balancer' }), metadata: { name: 'x', labels: { team: 'a' } } });
    const encoded = encodeV1('BlockAffinity', decoded);
    expect(encoded.metadata.name).toBe(blockAffinityName('load-balancer', 'fd00::/122'));
    expect(encoded.metadata.name).toBe('load-balancer-fd00---122');
    expect(encoded.metadata.labels).toEqual({
      'projectcalico.org/affinity-type': 'virtual',
      [AFFINITY_HOSTNAME_HASH_LABEL]: expect.stringMatching(/^[A-Z2-7]{52}$/) as unknown,
      'projectcalico.org/ip-version': '6',
    });
  });

  it('reads an etcd affinity with an empty value as state "" and not deleted', () => {
    expect(decodeEtcd('/calico/ipam/v2/virtual/load-balancer/ipv6/block/fd00::-122', '')).toEqual({
      kind: 'BlockAffinity',
      model: { host: 'load-balancer', type: 'virtual', cidr: 'fd00::/122', state: '', deleted: false },
    });
  });

  it('reads a soft-deleted etcd affinity', () => {
    const { model } = decodeEtcd('/calico/ipam/v2/host/n1/ipv4/block/10.0.0.0-26', '{"state":"pendingDeletion","deleted":true}');
    expect(model).toMatchObject({ state: 'pendingDeletion', deleted: true });
  });
});

describe('IPAMHandle codecs', () => {
  const handle = { handleId: 'K8s-Pod-Network.ABC', block: { 'fd00::/122': 2, '10.0.0.0/26': 1 }, deleted: false };

  it('lower-cases the object name and keeps the ID case in spec.handleID', () => {
    const encoded = encodeV1('IPAMHandle', handle);
    expect(encoded.metadata.name).toBe('k8s-pod-network.abc');
    expect(encoded.spec.handleID).toBe('K8s-Pod-Network.ABC');
    expect(decodeV1('IPAMHandle', encoded)).toEqual(handle);
  });

  it('keeps the raw ID in the etcd key and leaves it out of the value, with sorted block keys', () => {
    expect(encodeEtcd('IPAMHandle', handle)).toEqual({
      key: '/calico/ipam/v2/handle/K8s-Pod-Network.ABC',
      value: '{"block":{"10.0.0.0/26":1,"fd00::/122":2},"deleted":false}',
    });
  });

  it('reads a soft-deleted handle and a null block map', () => {
    expect(decodeEtcd('/calico/ipam/v2/handle/h', '{"block":null,"deleted":true}').model).toEqual({ handleId: 'h', block: {}, deleted: true });
  });

  it.each([
    ['spec.handleID', { handleID: undefined }],
    ['spec.handleID', { handleID: '' }],
    ['spec.block["10.0.0.0/26"]', { block: { '10.0.0.0/26': -1 } }],
    ['spec.block["nope"]', { block: { nope: 1 } }],
  ])('rejects a bad %s', (field, spec) => {
    const cr = { kind: 'IPAMHandle', metadata: { name: 'h' }, spec: { handleID: 'h', block: {}, deleted: false, ...spec } };
    expect(() => decodeV1('IPAMHandle', cr)).toThrow(`${field}:`);
  });
});

describe('IPAMConfig codecs', () => {
  it('omits every zero field in etcd', () => {
    const config = { strictAffinity: false, autoAllocateBlocks: false, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };
    expect(encodeEtcd('IPAMConfig', config)).toEqual({ key: '/calico/ipam/v2/config', value: '{}' });
    expect(decodeEtcd('/calico/ipam/v2/config', '{}').model).toEqual(config);
  });

  it('reads missing KDD booleans as their schema defaults', () => {
    const cr = { kind: 'IPAMConfiguration', metadata: { name: 'default' }, spec: {} };
    expect(decodeV3('IPAMConfig', cr)).toEqual({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
  });

  it('uses kind IPAMConfiguration in v3 and IPAMConfig in v1', () => {
    const config = { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, ipCooldownSeconds: 30 };
    expect(encodeV3('IPAMConfig', config).kind).toBe('IPAMConfiguration');
    expect(encodeV1('IPAMConfig', config).kind).toBe('IPAMConfig');
    expect(() => decodeV1('IPAMConfig', encodeV3('IPAMConfig', config))).toThrow('apiVersion:');
  });

  it.each([
    ['metadata.name', { metadata: { name: 'other' } }],
    ['spec.maxBlocksPerHost', { spec: { maxBlocksPerHost: -1 } }],
    ['spec.kubeVirtVMAddressPersistence', { spec: { kubeVirtVMAddressPersistence: 'Sometimes' } }],
    ['spec.strictAffinity', { spec: { strictAffinity: 'true' } }],
  ])('rejects a bad %s', (field, overrides) => {
    const cr = { kind: 'IPAMConfig', metadata: { name: 'default' }, spec: {}, ...overrides };
    expect(() => decodeV1('IPAMConfig', cr)).toThrow(`${field}:`);
  });

  it('round-trips the etcd example of design/calico-stored-formats.md#etcdv3-layout with its snake_case names', () => {
    const value = '{"strict_affinity":true,"auto_allocate_blocks":true,"maxBlocksPerHost":4,"kubeVirtVMAddressPersistence":"Enabled","ipCooldownSeconds":30}';
    const entry = decodeEtcd('/calico/ipam/v2/config', value);
    expect(entry.model).toEqual({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, kubeVirtVMAddressPersistence: 'Enabled', ipCooldownSeconds: 30 });
    expect(encodeEtcd(entry.kind, entry.model).value).toBe(value);
  });
});
