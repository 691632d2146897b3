import { describe, expect, it } from 'vitest';
import { CodecError, decodeEtcd, decodeV1, decodeV3, encodeEtcd, encodeV1, encodeV3, parseWireJson } from '../../src/index.js';

const pool = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'crd.projectcalico.org/v1',
  kind: 'IPPool',
  metadata: { name: 'p1' },
  spec,
  ...extra,
});

describe('IPPool codecs', () => {
  it.each([
    ['10.1.0.0/16', 26],
    ['fd00:1::/64', 122],
  ])('applies the clientv3 defaults on read to a minimal %s pool', (cidr, blockSize) => {
    expect(decodeV1('IPPool', pool({ cidr }))).toEqual({
      name: 'p1',
      cidr,
      blockSize,
      nodeSelector: 'all()',
      allowedUses: ['Workload', 'Tunnel'],
      assignmentMode: 'Automatic',
      ipipMode: 'Never',
      vxlanMode: 'Never',
    });
  });

  it('keeps spec, status and metadata fields it does not model through a round trip', () => {
    const cr = pool(
      { cidr: '10.1.0.0/16', blockSize: 24, futureField: { nested: [1, 2] }, vxlanMode: 'Always' },
      { status: { conditions: [{ type: 'Allocatable', status: 'False', reason: 'CIDROverlap' }], observed: 3 } },
    );
    cr.metadata = { name: 'p1', creationTimestamp: '2026-01-01T00:00:00Z', annotations: { note: 'x' } } as never;
    const decoded = decodeV3('IPPool', { ...cr, apiVersion: 'projectcalico.org/v3' });
    expect(decoded.unknownFields).toEqual({
      metadata: { creationTimestamp: '2026-01-01T00:00:00Z', annotations: { note: 'x' } },
      spec: { futureField: { nested: [1, 2] } },
      status: { observed: 3 },
    });
    expect(decoded.conditions).toEqual([{ type: 'Allocatable', status: 'False', reason: 'CIDROverlap' }]);
    const encoded = encodeV3('IPPool', decoded);
    expect(encoded.spec.futureField).toEqual({ nested: [1, 2] });
    expect(encoded.status).toEqual({ observed: 3, conditions: [{ type: 'Allocatable', status: 'False', reason: 'CIDROverlap' }] });
    expect(encoded.metadata).toMatchObject({ name: 'p1', creationTimestamp: '2026-01-01T00:00:00Z', annotations: { note: 'x' } });
  });

  it('reads v1 labels from the Calico metadata annotation and does not keep the stale annotation', () => {
    const cr = pool({ cidr: '10.1.0.0/16' });
    cr.metadata = {
      name: 'p1',
      labels: { 'projectcalico.org/x': 'real' },
      annotations: { 'projectcalico.org/metadata': '{"creationTimestamp":null,"labels":{"zone":"a"}}' },
    } as never;
    const decoded = decodeV1('IPPool', cr);
    expect(decoded.labels).toEqual({ zone: 'a' });
    expect(decoded.unknownFields).toBeUndefined();
    expect(encodeV1('IPPool', { ...decoded, labels: { zone: 'b' } }).metadata).toEqual({ name: 'p1', labels: { zone: 'b' } });
  });

  it('keeps a deletion timestamp', () => {
    const cr = pool({ cidr: '10.1.0.0/16' });
    cr.metadata = { name: 'p1', deletionTimestamp: '2026-08-22T13:00:00Z' } as never;
    const decoded = decodeV1('IPPool', cr);
    expect(decoded.deletionTimestamp).toBe('2026-08-22T13:00:00Z');
    expect(encodeV1('IPPool', decoded).metadata.deletionTimestamp).toBe('2026-08-22T13:00:00Z');
  });

  it.each([
    ['spec.cidr', { cidr: 'bogus' }],
    ['spec.blockSize', { cidr: '10.0.0.0/16', blockSize: '26' }],
    ['spec.ipipMode', { cidr: '10.0.0.0/16', ipipMode: 'Sometimes' }],
    ['spec.allowedUses[1]', { cidr: '10.0.0.0/16', allowedUses: ['Workload', 'Gateway'] }],
    ['spec.assignmentMode', { cidr: '10.0.0.0/16', assignmentMode: 'Auto' }],
    ['spec.natOutgoing', { cidr: '10.0.0.0/16', natOutgoing: 'yes' }],
  ])('rejects a bad %s', (field, spec) => {
    expect(() => decodeV1('IPPool', pool(spec))).toThrow(CodecError);
    expect(() => decodeV1('IPPool', pool(spec))).toThrow(`${field}:`);
  });

  it('rejects a bad condition status and a missing name', () => {
    expect(() => decodeV1('IPPool', pool({ cidr: '10.0.0.0/16' }, { status: { conditions: [{ type: 'A', status: 'Maybe' }] } }))).toThrow(
      'status.conditions[0].status:',
    );
    expect(() => decodeV1('IPPool', { ...pool({ cidr: '10.0.0.0/16' }), metadata: {} })).toThrow('metadata.name:');
  });

  it('stores an etcd pool without resourceVersion and checks the key against the name', () => {
    const decoded = decodeV1('IPPool', { ...pool({ cidr: '10.1.0.0/16' }), metadata: { name: 'p1', resourceVersion: '9' } });
    const { key, value } = encodeEtcd('IPPool', decoded);
    expect(key).toBe('/calico/resources/v3/projectcalico.org/ippools/p1');
    expect(parseWireJson(value)).toMatchObject({ kind: 'IPPool', apiVersion: 'projectcalico.org/v3', metadata: { name: 'p1' } });
    expect(value).not.toContain('resourceVersion');
    expect(() => decodeEtcd('/calico/resources/v3/projectcalico.org/ippools/p2', value)).toThrow('value.metadata.name:');
  });
});

describe('IPReservation codecs', () => {
  it('keeps entries verbatim for consumers to normalise, and reads a missing list as empty', () => {
    const cr = { kind: 'IPReservation', metadata: { name: 'r' }, spec: { reservedCIDRs: [' 10.0.0.1 ', '', '10.0.0.7/24'] } };
    expect(decodeV1('IPReservation', cr).reservedCIDRs).toEqual([' 10.0.0.1 ', '', '10.0.0.7/24']);
    expect(decodeV1('IPReservation', { ...cr, spec: {} }).reservedCIDRs).toEqual([]);
    expect(decodeV1('IPReservation', { ...cr, spec: { reservedCIDRs: null } }).reservedCIDRs).toEqual([]);
  });

  it('rejects a non-string entry', () => {
    expect(() => decodeV1('IPReservation', { metadata: { name: 'r' }, spec: { reservedCIDRs: [1] } })).toThrow('spec.reservedCIDRs[0]:');
  });
});
