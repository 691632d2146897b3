import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCidrs, sortedByCidr } from '../../src/address-order.js';

const cidr = fc.oneof(
  fc.tuple(fc.nat(3), fc.nat(255), fc.constantFrom(24, 26, 28)).map(([c, d, p]) => `10.0.${c}.${d & ~((1 << (32 - p)) - 1) & 255}/${p}`),
  fc.tuple(fc.nat(0x3ff), fc.constantFrom(120, 122)).map(([low, p]) => `fd00::${low.toString(16)}/${p}`),
);

describe('sortedByCidr', () => {
  it('orders exactly as sorting with compareCidrs does, equal CIDRs kept in their order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(cidr, fc.nat()), { maxLength: 40 }), (pairs) => {
        const items = pairs.map(([text, tag]) => ({ cidr: text, tag }));
        expect(sortedByCidr(items, (i) => i.cidr)).toStrictEqual([...items].sort((a, b) => compareCidrs(a.cidr, b.cidr)));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves its input as it was', () => {
    const items = ['10.0.1.0/26', '10.0.0.0/26'];
    expect(sortedByCidr(items, (c) => c)).toEqual(['10.0.0.0/26', '10.0.1.0/26']);
    expect(items).toEqual(['10.0.1.0/26', '10.0.0.0/26']);
  });
});
