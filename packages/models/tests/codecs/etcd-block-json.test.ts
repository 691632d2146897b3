import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBlockFields } from '../../src/codecs/block-fields.js';
import { writeEtcdBlockJson } from '../../src/codecs/etcd-block-json.js';
import { type AllocationBlock, encodeEtcd, etcdKeyForBlock, stringifyWireJson } from '../../src/index.js';

// The etcd block writer must write exactly what the general path (the block fields as an object
// with sorted Maps, through stringifyWireJson) writes, and fail where and as it fails.

/** What the general path makes of a block (encodeEtcd before the writer): its text, or the error it throws. */
function general(block: AllocationBlock): { text: string } | { error: string } {
  try {
    etcdKeyForBlock(block.cidr);
    return { text: stringifyWireJson(encodeBlockFields(block, 'etcd', 'value')) };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

/** What encodeEtcd (the direct writer, falling back to the general path) makes of it. */
function direct(block: AllocationBlock): { text: string } | { error: string } {
  try {
    return { text: encodeEtcd('IPAMBlock', block).value };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

const text = fc.oneof(fc.string(), fc.constantFrom('pod-1', 'a"b\\c', 'é', '\u2028', '\ud83d\ude00', '__proto__', 'constructor', '10', '2'));
const timestamp = fc.constantFrom('2026-12-01T18:00:00Z', '2026-12-01T18:00:00.123456789+01:30', '2026-02-30T00:00:00Z', 'not a time', '1999-12-31t23:59:59z');
const ownerMap = fc.dictionary(text, text, { maxKeys: 4 });
const attribute = fc.record(
  { handleId: fc.oneof(text, fc.constant('')), activeOwnerAttrs: ownerMap, alternateOwnerAttrs: ownerMap, releasedAt: timestamp },
  { requiredKeys: [] },
);
const uint64 = fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.constantFrom(0n, 1n, 1779000000000000001n));
const blockArb: fc.Arbitrary<AllocationBlock> = fc
  .record(
    {
      cidr: fc.constantFrom('10.0.0.0/26', '10.0.0.5/26', 'fd00::/122', '192.168.3.4/30', 'not-a-cidr'),
      affinity: fc.record({ type: fc.constantFrom('host' as const, 'virtual' as const), host: text }),
      affinityClaimTime: timestamp,
      allocations: fc.array(fc.option(fc.nat(70), { nil: null }), { maxLength: 64 }),
      unallocated: fc.array(fc.nat(63), { maxLength: 64 }),
      attributes: fc.array(attribute, { maxLength: 6 }),
      sequenceNumber: uint64,
      sequenceNumberForAllocation: fc.dictionary(fc.nat(63).map(String), uint64, { maxKeys: 8 }),
      deleted: fc.boolean(),
    },
    { requiredKeys: ['cidr', 'allocations', 'unallocated', 'attributes', 'sequenceNumber', 'sequenceNumberForAllocation', 'deleted'] },
  )
  .map((b) => b as AllocationBlock);

/** Some attributes frozen, some with their owner maps too (the writer reuses the text of those). */
const freezing = fc.array(fc.constantFrom('no', 'shallow', 'deep'), { minLength: 6, maxLength: 6 });
function frozenAsTold(block: AllocationBlock, how: readonly string[]): AllocationBlock {
  block.attributes.forEach((a, i) => {
    if (how[i] === 'deep') for (const map of [a.activeOwnerAttrs, a.alternateOwnerAttrs]) if (map !== undefined) Object.freeze(map);
    if (how[i] !== 'no') Object.freeze(a);
  });
  return block;
}

describe('the etcd block writer', () => {
  it('writes every block byte for byte as the general path does, or fails with its error', () => {
    fc.assert(
      fc.property(blockArb, freezing, (block, how) => {
        const frozen = frozenAsTold(block, how);
        expect(direct(frozen)).toEqual(general(frozen));
        // Again, now that the text of the frozen attributes is remembered.
        expect(direct(frozen)).toEqual(general(frozen));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes an attribute frozen with its owner maps once, and reuses its text', () => {
    let reads = 0;
    const attribute = Object.freeze({
      get handleId() {
        reads++;
        return 'h1';
      },
      activeOwnerAttrs: Object.freeze({ pod: 'p' }),
    });
    const loose = { handleId: 'h2', activeOwnerAttrs: { pod: 'q' } };
    const block: AllocationBlock = {
      cidr: '10.0.0.0/30', allocations: [0, 1, null, null], unallocated: [2, 3], attributes: [attribute, loose],
      sequenceNumber: 1n, sequenceNumberForAllocation: { '0': 1n, '1': 1n }, deleted: false,
    };
    const first = writeEtcdBlockJson(block, 'value');
    expect(first).toContain('{"handle_id":"h1","secondary":{"pod":"p"}}');
    expect(writeEtcdBlockJson({ ...block, attributes: [attribute, Object.freeze(loose)] }, 'value')).toBe(first);
    expect(reads).toBe(1);
  });

  it('writes a block the CNI leaves (attributes, claim time, big sequence numbers) itself, without the general path', () => {
    const block: AllocationBlock = {
      cidr: '10.0.116.128/26',
      affinity: { type: 'host', host: 'node-a' },
      affinityClaimTime: '2026-12-01T18:00:00Z',
      allocations: [0, null, 1, ...Array.from({ length: 61 }, () => null)],
      unallocated: [1, ...Array.from({ length: 61 }, (_, i) => i + 3)],
      attributes: [
        { handleId: 'k8s-pod-network.abc', activeOwnerAttrs: { pod: 'p', namespace: 'default', node: 'node-a', timestamp: '2026-12-01 18:00:00' } },
        { releasedAt: '2026-12-01T18:00:01Z' },
      ],
      sequenceNumber: 1779000000000000003n,
      sequenceNumberForAllocation: { '2': 1779000000000000002n, '0': 1779000000000000001n, '10': 7n },
      deleted: false,
    };
    const written = writeEtcdBlockJson(block, 'value');
    expect(written).toBe(
      '{"cidr":"10.0.116.128/26","affinity":"host:node-a","affinity_claim_time":"2026-12-01T18:00:00Z",' +
        `"allocations":[0,null,1${',null'.repeat(61)}],"unallocated":[1,${Array.from({ length: 61 }, (_, i) => i + 3).join(',')}],` +
        '"attributes":[{"handle_id":"k8s-pod-network.abc","secondary":{"namespace":"default","node":"node-a","pod":"p","timestamp":"2026-12-01 18:00:00"}},' +
        '{"releasedAt":"2026-12-01T18:00:01Z"}],"sequenceNumber":1779000000000000003,' +
        '"sequenceNumberForAllocation":{"0":1779000000000000001,"10":7,"2":1779000000000000002},"deleted":false}',
    );
    expect(general(block)).toEqual({ text: written });
  });

  it('writes a hole in the allocations as null itself, as the general path does', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the case under test
    const block = { cidr: '10.0.0.0/30', allocations: [0, , 1, null], unallocated: [1], attributes: [{}, {}], sequenceNumber: 1n, sequenceNumberForAllocation: {}, deleted: false } as AllocationBlock;
    expect(writeEtcdBlockJson(block, 'value')).toContain('"allocations":[0,null,1,null]');
    expect(direct(block)).toEqual(general(block));
  });

  it.each([
    ['a number JSON cannot hold', { allocations: [0, Number.NaN] }],
    ['a bigint ordinal', { unallocated: [1n as unknown as number] }],
    ['an owner value that is not a string', { attributes: [{ activeOwnerAttrs: { pod: 1 as unknown as string } }] }],
    ['an owner value left undefined', { attributes: [{ activeOwnerAttrs: { pod: undefined as unknown as string, ns: 'x' } }] }],
    ['a null owner map', { attributes: [{ activeOwnerAttrs: null as unknown as Record<string, string> }] }],
    ['a handle that is not a string', { attributes: [{ handleId: 5 as unknown as string }] }],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the case under test
    ['a hole among the attributes', { attributes: [{}, , {}] }],
    ['deleted left out', { deleted: undefined as unknown as boolean }],
    ['a null sequence map', { sequenceNumberForAllocation: null as unknown as Record<string, bigint> }],
  ])('declines %s and the general path decides', (_case, change) => {
    const block = { cidr: '10.0.0.0/30', allocations: [0, null, null, null], unallocated: [1, 2, 3], attributes: [{ handleId: 'h' }], sequenceNumber: 1n, sequenceNumberForAllocation: { '0': 1n }, deleted: false, ...change } as AllocationBlock;
    expect(writeEtcdBlockJson(block, 'value')).toBeUndefined();
    expect(direct(block)).toEqual(general(block));
  });

  it.each([
    ['a negative sequence number', { sequenceNumber: -1n }, /value\.sequenceNumber: expected a bigint/],
    ['a sequence number of the wrong type', { sequenceNumberForAllocation: { '0': 1n, '1': 2 as unknown as bigint } }, /value\.sequenceNumberForAllocation\["1"\]/],
    ['a bad release time', { attributes: [{ handleId: 'h' }, { releasedAt: 'yesterday' }] }, /value\.attributes\[1\]\.releasedAt/],
  ])('fails on %s with the general path\'s error', (_case, change, message) => {
    const block = { cidr: '10.0.0.0/30', allocations: [0, null, null, null], unallocated: [1, 2, 3], attributes: [{ handleId: 'h' }], sequenceNumber: 1n, sequenceNumberForAllocation: { '0': 1n }, deleted: false, ...change } as AllocationBlock;
    const outcome = general(block);
    expect(outcome).toEqual({ error: expect.stringMatching(message) as string });
    expect(direct(block)).toEqual(outcome);
  });
});
