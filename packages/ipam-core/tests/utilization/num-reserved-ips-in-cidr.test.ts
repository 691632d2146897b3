import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidAddressError } from '../../src/block/ip-address.js';
import { numReservedIPsInCIDR } from '../../src/utilization/num-reserved-ips-in-cidr.js';

describe('numReservedIPsInCIDR', () => {
  const reservations = [
    { name: 'a', reservedCIDRs: ['10.0.0.0/28', '10.0.0.4/30'] },
    { name: 'b', reservedCIDRs: ['10.0.0.8/29', '10.0.0.100', ' ', 'junk'] },
    { name: 'c', reservedCIDRs: ['fd00::/64'] },
  ];

  it.each([
    ['10.0.0.0/24', 17n],
    ['10.0.0.0/28', 16n],
    ['10.0.0.96/29', 1n],
    ['10.0.1.0/24', 0n],
    ['fd00::/48', 1n << 64n],
    ['fd00::/122', 64n],
    ['0.0.0.0/0', 17n],
  ])('counts %s as %s reserved, nested and overlapping entries once', (cidr, expected) => {
    expect(numReservedIPsInCIDR(cidr, reservations)).toBe(expected);
  });

  it('rejects a malformed CIDR', () => {
    expect(() => numReservedIPsInCIDR('10.0.0.0/99', reservations)).toThrow(InvalidAddressError);
  });

  it('equals a brute-force count over random nested reservations inside a /24', () => {
    const cidrIn24 = fc.record({ offset: fc.nat(255), len: fc.integer({ min: 24, max: 32 }) });
    fc.assert(
      fc.property(fc.array(cidrIn24, { maxLength: 10 }), cidrIn24, (entries, target) => {
        const text = (c: { offset: number; len: number }) => `10.0.0.${c.offset}/${c.len}`;
        const span = (c: { offset: number; len: number }) => {
          const size = 2 ** (32 - c.len);
          const base = c.offset - (c.offset % size);
          return [base, base + size] as const;
        };
        const reserved = new Set<number>();
        for (const e of entries) for (let v = span(e)[0]; v < span(e)[1]; v += 1) reserved.add(v);
        let expected = 0;
        for (let v = span(target)[0]; v < span(target)[1]; v += 1) if (reserved.has(v)) expected += 1;
        expect(numReservedIPsInCIDR(text(target), [{ name: 'r', reservedCIDRs: entries.map(text) }])).toBe(BigInt(expected));
      }),
    );
  });
});
