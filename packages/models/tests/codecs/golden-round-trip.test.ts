import { describe, expect, it } from 'vitest';
import {
  type WireKind,
  decodeEtcd,
  decodeV1,
  decodeV3,
  encodeEtcd,
  encodeV1,
  encodeV3,
  parseWireJson,
  stringifyWireJson,
} from '../../src/index.js';
import * as g from './golden.js';

const crdCases: { kind: WireKind; v1: string; v3: string }[] = [
  { kind: 'IPAMBlock', v1: g.V1_BLOCK(), v3: g.V3_BLOCK() },
  { kind: 'BlockAffinity', v1: g.V1_AFFINITY, v3: g.V3_AFFINITY },
  { kind: 'IPAMHandle', v1: g.V1_HANDLE, v3: g.V3_HANDLE },
  { kind: 'IPAMConfig', v1: g.V1_CONFIG, v3: g.V3_CONFIG },
  { kind: 'IPPool', v1: g.V1_POOL, v3: g.V3_POOL },
  { kind: 'IPReservation', v1: g.V1_RESERVATION, v3: g.V3_RESERVATION },
];

describe('crd.projectcalico.org/v1 golden examples', () => {
  it.each(crdCases)('$kind decodes and re-encodes to the same JSON, byte for byte', ({ kind, v1 }) => {
    const parsed = parseWireJson(v1);
    const encoded = encodeV1(kind, decodeV1(kind, parsed));
    expect(encoded).toEqual(parsed);
    expect(stringifyWireJson(encoded)).toBe(stringifyWireJson(parsed));
  });
});

describe('projectcalico.org/v3 golden examples', () => {
  it.each(crdCases)('$kind decodes and re-encodes to the same JSON, byte for byte', ({ kind, v3 }) => {
    const parsed = parseWireJson(v3);
    const encoded = encodeV3(kind, decodeV3(kind, parsed));
    expect(encoded).toEqual(parsed);
    expect(stringifyWireJson(encoded)).toBe(stringifyWireJson(parsed));
  });

  it.each(crdCases)('$kind decodes to the same model from v1 and v3', ({ kind, v1, v3 }) => {
    const { revision: _r1, uid: _u1, ...fromV1 } = decodeV1(kind, parseWireJson(v1));
    const { revision: _r3, uid: _u3, ...fromV3 } = decodeV3(kind, parseWireJson(v3));
    expect(fromV3).toEqual(fromV1);
  });
});

const etcdCases: { kind: WireKind; key: string; value: string }[] = [
  { kind: 'IPAMBlock', key: g.ETCD_BLOCK_KEY, value: g.ETCD_BLOCK() },
  { kind: 'BlockAffinity', key: g.ETCD_AFFINITY_KEY, value: g.ETCD_AFFINITY },
  { kind: 'IPAMHandle', key: g.ETCD_HANDLE_KEY, value: g.ETCD_HANDLE },
  { kind: 'IPAMConfig', key: g.ETCD_CONFIG_KEY, value: g.ETCD_CONFIG },
  { kind: 'IPPool', key: g.ETCD_POOL_KEY, value: g.ETCD_POOL },
  { kind: 'IPReservation', key: g.ETCD_RESERVATION_KEY, value: g.ETCD_RESERVATION },
];

describe('etcdv3 golden examples', () => {
  it.each(etcdCases)('$kind decodes and re-encodes to the same key and value bytes', ({ kind, key, value }) => {
    const decoded = decodeEtcd(key, value);
    expect(decoded.kind).toBe(kind);
    expect(encodeEtcd(decoded.kind, decoded.model)).toEqual({ key, value });
  });

  it('decodes the etcd block to the same model as the v1 block', () => {
    const { revision: _r, uid: _u, ...fromV1 } = decodeV1('IPAMBlock', parseWireJson(g.V1_BLOCK()));
    expect(decodeEtcd(g.ETCD_BLOCK_KEY, g.ETCD_BLOCK()).model).toEqual(fromV1);
  });
});

describe('the decoded golden block', () => {
  const block = decodeV1('IPAMBlock', parseWireJson(g.V1_BLOCK()));

  it('has the fields of the example with bigint sequence numbers', () => {
    expect(block.cidr).toBe('10.0.0.0/26');
    expect(block.affinity).toEqual({ type: 'host', host: 'node-a' });
    expect(block.affinityClaimTime).toBe('2026-08-22T13:33:20Z');
    expect(block.allocations).toHaveLength(64);
    expect(block.allocations.slice(0, 3)).toEqual([0, 1, null]);
    expect(block.unallocated).toEqual(Array.from({ length: 62 }, (_, i) => i + 2));
    expect(block.attributes).toEqual([
      {
        handleId: g.HANDLE_ID,
        activeOwnerAttrs: { namespace: 'default', node: 'node-a', pod: 'web-0', timestamp: '2026-08-22 13:33:20.1 +0000 UTC' },
      },
      { releasedAt: '2026-08-22T13:40:00Z' },
    ]);
    expect(block.sequenceNumber).toBe(1787405600000000007n);
    expect(block.sequenceNumberForAllocation).toEqual({ '0': 1787405600000000005n, '1': 1787405600000000006n });
    expect(block.deleted).toBe(false);
    expect(block.revision).toBe('123456');
    expect(block.uid).toBe('3f1b6a52-8c1e-4d2b-9a77-0c5e2f4d1a90');
  });
});

describe('a sequence number of 1779000000000000001', () => {
  const seq = '1779000000000000001';

  it('survives decode and encode in the v1 form', () => {
    const block = decodeV1('IPAMBlock', parseWireJson(g.V1_BLOCK(seq)));
    expect(block.sequenceNumber).toBe(1779000000000000001n);
    expect(stringifyWireJson(encodeV1('IPAMBlock', block))).toBe(stringifyWireJson(parseWireJson(g.V1_BLOCK(seq))));
    expect(stringifyWireJson(encodeV1('IPAMBlock', block))).toContain(`"sequenceNumber":${seq},`);
  });

  it('survives decode and encode in the v3 form', () => {
    const block = decodeV3('IPAMBlock', parseWireJson(g.V3_BLOCK(seq)));
    expect(block.sequenceNumber).toBe(1779000000000000001n);
    expect(stringifyWireJson(encodeV3('IPAMBlock', block))).toContain(`"sequenceNumber":${seq},`);
  });

  it('survives decode and encode in the etcd form', () => {
    const { model } = decodeEtcd(g.ETCD_BLOCK_KEY, g.ETCD_BLOCK(seq));
    expect(model).toMatchObject({ sequenceNumber: 1779000000000000001n });
    const entry = decodeEtcd(g.ETCD_BLOCK_KEY, g.ETCD_BLOCK(seq));
    expect(encodeEtcd(entry.kind, entry.model).value).toBe(g.ETCD_BLOCK(seq));
  });

  it('is the value plain JSON.parse would have rounded', () => {
    expect(BigInt(JSON.parse(seq) as number)).not.toBe(1779000000000000001n);
  });
});
