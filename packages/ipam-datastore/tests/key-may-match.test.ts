import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyMayMatch } from '../src/engine/key-may-match.js';
import { KINDS, matchesFilter, type KindName } from '../src/engine/kinds.js';
import type { StampFilter } from '../src/engine/row-engine.js';

// A transaction's validation judges from a changed row's key whether the body's lists and stamps
// covered it (design/ipam-datastore.md, "Optimistic transactions"): it must never miss a row the
// filter selects, whatever odd characters a host name holds.

const host = fc.oneof(fc.constantFrom('node-a', 'node-b', 'a/b', 'a:b', 'host/with/slashes', ''), fc.string({ maxLength: 6 }));
const type = fc.constantFrom('host', 'virtual', 'ho', 'host/x');
const cidr = fc.constantFrom('10.0.0.0/26', '10.0.1.0/26', 'fd00::/122', 'fd00:1::/122');
const filter = fc.record(
  { host, type, ipVersion: fc.constantFrom<4 | 6>(4, 6), key: fc.constantFrom('10.0.0.0/26', 'host/node-a/10.0.0.0/26') },
  { requiredKeys: [] },
);

describe('keyMayMatch', () => {
  it('is true for every affinity and block row a filter selects', () => {
    fc.assert(
      fc.property(fc.constantFrom<KindName>('affinity', 'block'), host, type, cidr, filter, (kind, h, t, c, f: StampFilter) => {
        const value = kind === 'affinity' ? { host: h, type: t, cidr: c, state: 'confirmed', deleted: false } : { cidr: c };
        const key = KINDS[kind].keyOf(value);
        const selected = (f.key === undefined || f.key === key) && matchesFilter(KINDS[kind].indexOf(value), f);
        if (selected) expect(keyMayMatch(kind, key, f)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart the rows a host-scoped stamp does not cover', () => {
    const mine = { host: 'node-a', type: 'host', ipVersion: 4 as const };
    expect(keyMayMatch('affinity', 'host/node-a/10.0.0.0/26', mine)).toBe(true);
    expect(keyMayMatch('affinity', 'host/node-b/10.0.0.0/26', mine)).toBe(false);
    expect(keyMayMatch('affinity', 'host/node-a/fd00::/122', mine)).toBe(false);
    expect(keyMayMatch('affinity', 'virtual/node-a/10.0.0.0/26', mine)).toBe(false);
    expect(keyMayMatch('block', 'fd00::/122', { ipVersion: 4 })).toBe(false);
    expect(keyMayMatch('node', 'node-b', { key: 'node-a' })).toBe(false);
    expect(keyMayMatch('ipPool', 'any', {})).toBe(true);
  });
});
