import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AllocationBlock, CodecError, decodeEtcd, decodeV1, decodeV3, encodeEtcd, encodeV1, parseWireJson } from '../../src/index.js';

/** A /30 block spec with one allocation, as a plain object so tests can vary fields. */
function spec(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cidr: '10.0.0.4/30',
    allocations: [0, null, null, null],
    unallocated: [1, 2, 3],
    attributes: [{ handle_id: 'h1', secondary: { pod: 'p' } }],
    sequenceNumber: 7,
    sequenceNumberForAllocation: { '0': 6 },
    deleted: false,
    strictAffinity: false,
    ...overrides,
  };
}
const cr = (s: Record<string, unknown>) => ({ apiVersion: 'crd.projectcalico.org/v1', kind: 'IPAMBlock', metadata: { name: '10-0-0-4-30' }, spec: s });

describe('block null and empty collections', () => {
  it.each([
    ['attributes', { attributes: null, allocations: [null, null, null, null], unallocated: [0, 1, 2, 3] }],
    ['attributes', { attributes: [], allocations: [null, null, null, null], unallocated: [0, 1, 2, 3] }],
    ['attributes', { attributes: undefined, allocations: [null, null, null, null], unallocated: [0, 1, 2, 3] }],
  ])('reads %s given as %j as an empty array', (_field, overrides) => {
    expect(decodeV1('IPAMBlock', cr(spec(overrides))).attributes).toEqual([]);
  });

  it.each([null, {}, undefined])('reads sequenceNumberForAllocation %j as an empty map', (value) => {
    expect(decodeV1('IPAMBlock', cr(spec({ sequenceNumberForAllocation: value }))).sequenceNumberForAllocation).toEqual({});
  });

  it.each([null, [], undefined])('reads unallocated %j of a full block as an empty queue', (value) => {
    const full = spec({ allocations: [0, 0, 0, 0], unallocated: value });
    expect(decodeV1('IPAMBlock', cr(full)).unallocated).toEqual([]);
  });

  it('reads an etcd block with null attributes and null affinity the same as one with []', () => {
    const key = '/calico/ipam/v2/assignment/ipv4/block/10.0.0.4-30';
    const withNull = '{"cidr":"10.0.0.4/30","affinity":null,"allocations":[null,null,null,null],"unallocated":[0,1,2,3],"attributes":null,"sequenceNumber":1,"sequenceNumberForAllocation":null,"deleted":false}';
    const withEmpty = '{"cidr":"10.0.0.4/30","allocations":[null,null,null,null],"unallocated":[0,1,2,3],"attributes":[],"sequenceNumber":1,"sequenceNumberForAllocation":{},"deleted":false}';
    expect(decodeEtcd(key, withNull)).toEqual(decodeEtcd(key, withEmpty));
    expect(decodeEtcd(key, withNull).model).not.toHaveProperty('affinity');
  });

  it('always writes attributes as an array and strictAffinity false in KDD', () => {
    const block = decodeV1('IPAMBlock', cr(spec({ attributes: null, allocations: [null, null, null, null], unallocated: [0, 1, 2, 3] })));
    const encoded = encodeV1('IPAMBlock', block).spec;
    expect(encoded.attributes).toEqual([]);
    expect(encoded.strictAffinity).toBe(false);
    expect(encoded).not.toHaveProperty('affinity');
  });

  it('writes affinity as null in etcd when the block is not affine', () => {
    const block = decodeV1('IPAMBlock', cr(spec()));
    expect(parseWireJson(encodeEtcd('IPAMBlock', block).value)).toMatchObject({ affinity: null });
  });
});

describe('block decoding details', () => {
  it('cuts a handle ID at the first carriage return (old host-local migration data)', () => {
    const block = decodeV1('IPAMBlock', cr(spec({ attributes: [{ handle_id: 'h1\r\nrest' }] })));
    expect(block.attributes[0]).toEqual({ handleId: 'h1' });
  });

  it('masks the CIDR and reads a missing sequence number as 0', () => {
    const block = decodeV1('IPAMBlock', cr(spec({ cidr: '10.0.0.6/30', sequenceNumber: undefined })));
    expect(block.cidr).toBe('10.0.0.4/30');
    expect(block.sequenceNumber).toBe(0n);
  });

  it('accepts fractional-second timestamps and writes whole seconds in UTC', () => {
    const block = decodeV1(
      'IPAMBlock',
      cr(spec({ affinity: 'virtual:load-balancer', affinityClaimTime: '2026-08-22T15:33:20.987654+02:00', attributes: [{ releasedAt: '2026-08-22T13:40:00.5Z' }] })),
    );
    expect(block.affinity).toEqual({ type: 'virtual', host: 'load-balancer' });
    expect(block.affinityClaimTime).toBe('2026-08-22T13:33:20Z');
    expect(block.attributes[0]?.releasedAt).toBe('2026-08-22T13:40:00Z');
    const written: AllocationBlock = { ...block, affinityClaimTime: '2026-08-22T13:33:20.999Z' };
    expect(encodeV1('IPAMBlock', written).spec.affinityClaimTime).toBe('2026-08-22T13:33:20Z');
  });

  it('reads a soft-deleted block', () => {
    expect(decodeV1('IPAMBlock', cr(spec({ deleted: true }))).deleted).toBe(true);
    expect(decodeV3('IPAMBlock', { ...cr(spec({ deleted: true })), apiVersion: 'projectcalico.org/v3' }).deleted).toBe(true);
  });

  it('drops the legacy hostAffinity field, as Calico does', () => {
    const key = '/calico/ipam/v2/assignment/ipv4/block/10.0.0.4-30';
    const value = '{"cidr":"10.0.0.4/30","affinity":null,"allocations":[null,null,null,null],"unallocated":[0,1,2,3],"attributes":[],"sequenceNumber":1,"sequenceNumberForAllocation":{},"deleted":false,"hostAffinity":"old"}';
    const { model } = decodeEtcd(key, value);
    expect(encodeEtcd('IPAMBlock', model as AllocationBlock).value).toBe(value.replace(',"hostAffinity":"old"', ''));
  });

  it('writes sequenceNumberForAllocation keys in Go byte order in etcd', () => {
    const block = decodeV1('IPAMBlock', cr(spec({ allocations: [0, 0, 0, 0], unallocated: [], sequenceNumberForAllocation: { '2': 1, '10': 2, '1': 3 } })));
    expect(encodeEtcd('IPAMBlock', block).value).toContain('"sequenceNumberForAllocation":{"1":3,"10":2,"2":1}');
  });
});

describe('malformed blocks', () => {
  it.each([
    ['spec.cidr', { cidr: undefined }],
    ['spec.cidr', { cidr: '10.0.0.300/30' }],
    ['spec.cidr', { cidr: '10.0.0.0/8' }],
    ['spec.allocations', { allocations: [null, null, null, null, null] }],
    ['spec.allocations', { allocations: 'none' }],
    ['spec.allocations[0]', { allocations: [5, null, null, null] }],
    ['spec.allocations[0]', { allocations: [-1, null, null, null] }],
    ['spec.allocations[1]', { allocations: [0, 0.5, null, null] }],
    ['spec.unallocated[0]', { unallocated: [4] }],
    ['spec.attributes[0]', { attributes: ['x'] }],
    ['spec.attributes[0].secondary["pod"]', { attributes: [{ secondary: { pod: 1 } }] }],
    ['spec.attributes[0].releasedAt', { attributes: [{ releasedAt: 'yesterday' }] }],
    ['spec.sequenceNumber', { sequenceNumber: '7' }],
    ['spec.sequenceNumber', { sequenceNumber: -1 }],
    ['spec.sequenceNumber', { sequenceNumber: 18446744073709551616n }],
    ['spec.sequenceNumberForAllocation["x"]', { sequenceNumberForAllocation: { x: 1 } }],
    ['spec.sequenceNumberForAllocation["01"]', { sequenceNumberForAllocation: { '01': 1 } }],
    ['spec.sequenceNumberForAllocation[""]', { sequenceNumberForAllocation: { '': 1 } }],
    ['spec.sequenceNumberForAllocation["0"]', { sequenceNumberForAllocation: { '0': -1 } }],
    ['spec.allocations[2]', { allocations: [0, null, 2n ** 60n, null] }],
    ['spec.attributes[0].handle_id', { attributes: [{ handle_id: 7 }] }],
    ['spec.attributes[0].secondary', { attributes: [{ secondary: ['pod'] }] }],
    ['spec.attributes[0].alternateOwnerAttrs["node"]', { attributes: [{ alternateOwnerAttrs: { node: null } }] }],
    ['spec.attributes[1]', { attributes: [{}, null], allocations: [0, null, null, null] }],
    ['spec.sequenceNumberForAllocation["0"]', { sequenceNumberForAllocation: { '0': 1.5 } }],
    ['spec.affinity', { affinity: 'pod:x' }],
    ['spec.affinity', { affinity: 'host:' }],
    ['spec.affinityClaimTime', { affinityClaimTime: '2026-02-30T00:00:00Z' }],
    ['spec.deleted', { deleted: 'false' }],
  ])('rejects a bad %s with a CodecError naming it', (field, overrides) => {
    const run = () => decodeV1('IPAMBlock', cr(spec(overrides)));
    expect(run).toThrow(CodecError);
    expect(run).toThrow(`${field}:`);
  });

  it.each([
    ['apiVersion', { ...cr(spec()), apiVersion: 'projectcalico.org/v3' }],
    ['kind', { ...cr(spec()), kind: 'IPAMHandle' }],
    ['$', 'not an object'],
    ['spec', { ...cr(spec()), spec: [] }],
  ])('rejects a bad envelope (%s)', (field, value) => {
    expect(() => decodeV1('IPAMBlock', value)).toThrow(`${field}:`);
  });

  it('rejects a model whose sequence number is not a uint64 bigint on encode', () => {
    const block = decodeV1('IPAMBlock', cr(spec()));
    expect(() => encodeV1('IPAMBlock', { ...block, sequenceNumber: 5 as unknown as bigint })).toThrow(CodecError);
    expect(() => encodeV1('IPAMBlock', { ...block, sequenceNumber: -1n })).toThrow('spec.sequenceNumber');
  });
});

// The decode builds no path text unless a field fails (design/models.md, "Decoding without garbage"):
// these pin what it returns for the shapes it reads without one.
describe('block decode without path text', () => {
  it('keeps a "__proto__" owner attribute as an own entry and leaves the prototype alone', () => {
    const secondary = JSON.parse('{"__proto__":"x","pod":"p"}') as Record<string, unknown>;
    const block = decodeV1('IPAMBlock', cr(spec({ attributes: [{ handle_id: 'h1', secondary }] })));
    const attrs = block.attributes[0]?.activeOwnerAttrs ?? {};
    expect(Object.getPrototypeOf(attrs)).toBe(Object.prototype);
    expect(Object.keys(attrs)).toEqual(['__proto__', 'pod']);
    expect(Object.getOwnPropertyDescriptor(attrs, '__proto__')?.value).toBe('x');
  });

  it.each([
    [{ handle_id: 'h1', secondary: {} }, { handleId: 'h1' }],
    [{ handle_id: '', secondary: null, alternateOwnerAttrs: { a: 'b' } }, { alternateOwnerAttrs: { a: 'b' } }],
    [{ handle_id: 'h\r', releasedAt: null }, { handleId: 'h' }],
    [{ handle_id: null, releasedAt: '2026-01-02T03:04:05Z' }, { releasedAt: '2026-01-02T03:04:05Z' }],
  ])('reads the attribute %j as %j', (attribute, expected) => {
    expect(decodeV1('IPAMBlock', cr(spec({ attributes: [attribute] }))).attributes).toEqual([expected]);
  });

  it('reads every decimal ordinal key and refuses every other, as the pattern ^(0|[1-9][0-9]*)$ does', () => {
    const keys = fc.oneof(fc.string({ maxLength: 4 }), fc.stringMatching(/^[0-9]{1,4}$/), fc.constantFrom('0', '00', '-1', ' 1', '1 '));
    fc.assert(
      fc.property(keys, (key) => {
        const run = () => decodeV1('IPAMBlock', cr(spec({ sequenceNumberForAllocation: { [key]: 3 } })));
        if (/^(0|[1-9][0-9]*)$/.test(key)) expect(run().sequenceNumberForAllocation[key]).toBe(3n);
        else expect(run).toThrow('key is not a decimal ordinal');
      }),
    );
  });
});

