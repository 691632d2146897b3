import { describe, expect, it } from 'vitest';
import { parseReservedCidrs } from '../../src/reservations/parse-reserved-cidrs.js';
import { createReservationFilter } from '../../src/reservations/reservation-filter.js';

describe('parseReservedCidrs', () => {
  it('trims, skips blanks, masks CIDRs, widens bare addresses and reports unparsable entries', () => {
    const parsed = parseReservedCidrs([
      { name: 'a', reservedCIDRs: [' 10.0.0.77/26 ', '', '   ', '10.0.1.5', 'fd00::1'] },
      { name: 'b', reservedCIDRs: ['not-an-ip', '10.0.0.0/40'] },
    ]);
    expect(parsed.cidrs.map((c) => [c.version, c.base, c.prefixLength])).toEqual([
      [4, 0x0a000040n, 26],
      [4, 0x0a000105n, 32],
      [6, (0xfd00n << 112n) | 1n, 128],
    ]);
    expect(parsed.invalid).toEqual(['b: not-an-ip', 'b: 10.0.0.0/40']);
  });
});

describe('createReservationFilter', () => {
  const filter = createReservationFilter([
    { name: 'outer', reservedCIDRs: ['10.0.0.0/28'] },
    { name: 'nested', reservedCIDRs: ['10.0.0.4/30', '10.0.0.16/29', '10.0.0.24/29'] },
    { name: 'v6', reservedCIDRs: ['fd00::40/122'] },
  ]);

  it.each([
    ['10.0.0.0', true],
    ['10.0.0.15', true],
    ['10.0.0.31', true],
    ['10.0.0.32', false],
    ['fd00::7f', true],
    ['fd00::80', false],
    ['::a00:1', false],
  ])('matchesAddress(%s) = %s', (ip, expected) => {
    expect(filter.matchesAddress(ip)).toBe(expected);
  });

  it.each([
    // cidr, some, whole, count
    ['10.0.0.0/27', true, true, 32n],
    ['10.0.0.0/26', true, false, 32n],
    ['10.0.0.16/28', true, true, 16n],
    ['10.0.0.32/27', false, false, 0n],
    ['10.0.0.8/32', true, true, 1n],
    ['fd00::/120', true, false, 64n],
    ['fd00::40/122', true, true, 64n],
  ])('for %s: matchesSome=%s matchesWholeCidr=%s countIn=%s', (cidr, some, whole, count) => {
    expect(filter.matchesSome(cidr)).toBe(some);
    expect(filter.matchesWholeCidr(cidr)).toBe(whole);
    expect(filter.countIn(cidr)).toBe(count);
  });

  it('merges overlapping and adjacent reservations into one range', () => {
    expect(filter.reserved).toEqual([
      { version: 4, start: 0x0a000000n, end: 0x0a000020n },
      { version: 6, start: (0xfd00n << 112n) | 0x40n, end: (0xfd00n << 112n) | 0x80n },
    ]);
  });

  it('matches nothing when there are no reservations', () => {
    const none = createReservationFilter([]);
    expect(none.matchesAddress('10.0.0.1')).toBe(false);
    expect(none.matchesWholeCidr('10.0.0.0/32')).toBe(false);
  });
});
