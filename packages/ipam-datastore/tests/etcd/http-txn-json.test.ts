import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireCompare, WireOp } from '../../src/etcd/wire/etcd-wire.js';
import { txnJson } from '../../src/etcd/wire/http-wire.js';

// The txn body is written with the put values spliced in rather than passed through
// JSON.stringify (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)"); it
// must be exactly the text JSON.stringify makes of etcd's JSON form of the same request.

const b64 = (b: Buffer): string => b.toString('base64');
const bytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a));
const revision = fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: (1n << 63n) - 1n }).map(String));
// Compares are written by hand (design/ipam-core.md, "Allocation cost: the ninth round (2026-12-02)"): their
// revisions also take text JSON escapes, and digits past what the fast path takes.
const compareRevision = fc.oneof(revision, fc.string(), fc.constantFrom('1"2', '\\', '\u2028', '123456789012345678901234'));
const compare: fc.Arbitrary<WireCompare> = fc.record(
  { key: bytes, end: bytes, target: fc.constantFrom('create' as const, 'mod' as const), result: fc.constantFrom('equal' as const, 'less' as const), revision: compareRevision },
  { requiredKeys: ['key', 'target', 'result', 'revision'] },
);
const op: fc.Arbitrary<WireOp> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), key: bytes, value: bytes }),
  fc.record({ op: fc.constant('delete' as const), key: bytes }),
  fc.record({
    op: fc.constant('range' as const),
    range: fc.record({ key: bytes, end: bytes, revision, limit: fc.nat(1000) }, { requiredKeys: ['key'] }),
  }),
);

/** etcd's JSON form of a txn request, as the gateway documents it, through JSON.stringify. */
function reference(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): string {
  const json = (o: WireOp): object => {
    switch (o.op) {
      case 'range':
        return {
          request_range: {
            key: b64(o.range.key),
            ...(o.range.end === undefined ? {} : { range_end: b64(o.range.end) }),
            ...(o.range.revision === undefined ? {} : { revision: o.range.revision }),
            ...(o.range.limit === undefined ? {} : { limit: String(o.range.limit) }),
          },
        };
      case 'put':
        return { request_put: { key: b64(o.key), value: b64(o.value) } };
      case 'delete':
        return { request_delete_range: { key: b64(o.key) } };
    }
  };
  return JSON.stringify({
    compare: compares.map((c) => ({
      key: b64(c.key),
      ...(c.end === undefined ? {} : { range_end: b64(c.end) }),
      target: c.target === 'mod' ? 'MOD' : 'CREATE',
      result: c.result === 'equal' ? 'EQUAL' : 'LESS',
      [c.target === 'mod' ? 'mod_revision' : 'create_revision']: c.revision,
    })),
    success: success.map(json),
    failure: failure.map(json),
  });
}

describe('the http wire\'s txn body', () => {
  it('is the text JSON.stringify makes of the request, whatever the keys, values and ops', () => {
    fc.assert(
      fc.property(fc.array(compare, { maxLength: 6 }), fc.array(op, { maxLength: 6 }), fc.array(op, { maxLength: 6 }), (compares, success, failure) => {
        const text = txnJson(compares, success, failure);
        expect(text).toBe(reference(compares, success, failure));
        expect(JSON.parse(text)).toEqual(JSON.parse(reference(compares, success, failure)));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes a block put with the value as its base64, unescaped', () => {
    const value = Buffer.from('{"cidr":"10.0.0.0/30","attributes":[{"secondary":{"pod":"a\\"b"}}]}');
    const text = txnJson([], [{ op: 'put', key: Buffer.from('/k'), value }], []);
    expect(text).toBe(`{"compare":[],"success":[{"request_put":{"key":"${b64(Buffer.from('/k'))}","value":"${b64(value)}"}}],"failure":[]}`);
  });
});
