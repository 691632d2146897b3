import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { formatAddress } from '@ipamkit/models';
import { InvalidAddressError, formatBlockInterval, parseBlockInterval, parseInputAddress } from '../../src/block/ip-address.js';

describe('parseInputAddress / formatAddress', () => {
  it.each([
    ['10.0.0.5', 4, 0x0a000005n, '10.0.0.5'],
    ['0.0.0.0', 4, 0n, '0.0.0.0'],
    ['255.255.255.255', 4, 0xffffffffn, '255.255.255.255'],
    ['fd00::', 6, 0xfd00n << 112n, 'fd00::'],
    ['FD00:0:0:0:0:0:0:1', 6, (0xfd00n << 112n) | 1n, 'fd00::1'],
    ['2001:db8:0:1:0:0:0:40', 6, 0x20010db8000000010000000000000040n, '2001:db8:0:1::40'],
    ['2001:db8:0:0:1:0:0:1', 6, 0x20010db8000000000001000000000001n, '2001:db8::1:0:0:1'],
    ['::', 6, 0n, '::'],
    ['::ffff:10.0.0.1', 4, 0x0a000001n, '10.0.0.1'], // IPv4-mapped is unmapped (design/calico-stored-formats.md#encoding-rules),
  ] as const)('parses %s and prints it canonically', (text, version, value, canonical) => {
    expect(parseInputAddress(text)).toEqual({ version, value });
    expect(formatAddress(version, value)).toBe(canonical);
  });

  it.each(['', '10.0.0', '10.0.0.256', '010.0.0.1', '1:2:3:4:5:6:7:8:9', 'fd00::1::2', 'gg::1', '10.0.0.1/32'])(
    'rejects %j with InvalidAddressError',
    (text) => {
      expect(() => parseInputAddress(text)).toThrow(InvalidAddressError);
    },
  );

  it('reads the IPv4-mapped ::ffff:0:0 back as 0.0.0.0', () => {
    const value = 0xffffn << 32n;
    expect(parseInputAddress(formatAddress(6, value))).toEqual({ version: 4, value: 0n });
  });

  it('prints every IPv6 value exactly as ipaddr.js prints RFC 5952 text', () => {
    const group = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const value = groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
        const text = formatAddress(6, value);
        expect(text).toBe(ipaddr.IPv6.parse(groups.map((g) => g.toString(16)).join(':')).toRFC5952String());
        // An IPv4-mapped value (::ffff:a.b.c.d) reads back as the IPv4 address, as Go's net.IP does.
        const mapped = value >> 32n === 0xffffn;
        expect(parseInputAddress(text)).toEqual(mapped ? { version: 4, value: value & 0xffffffffn } : { version: 6, value });
      }),
    );
  });
});

describe('parseBlockInterval', () => {
  it.each([
    ['10.0.0.77/26', '10.0.0.64/26', 64n],
    ['fd00::1:5/122', 'fd00::1:0/122', 64n],
    ['10.1.2.3/32', '10.1.2.3/32', 1n],
    ['0.0.0.0/0', '0.0.0.0/0', 1n << 32n],
  ])('masks %s to %s', (text, canonical, size) => {
    expect(formatBlockInterval(parseBlockInterval(text))).toBe(canonical);
    expect(parseBlockInterval(text).size).toBe(size);
  });

  it('accepts a bare address only when asked, as a single-address CIDR', () => {
    expect(() => parseBlockInterval('10.0.0.1')).toThrow(InvalidAddressError);
    expect(formatBlockInterval(parseBlockInterval('10.0.0.1/32'))).toBe('10.0.0.1/32');
    expect(parseBlockInterval('fd00::1', true)).toEqual({ version: 6, base: (0xfd00n << 112n) | 1n, prefixLength: 128, size: 1n });
  });

  it.each(['10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0.0/x', 'nonsense/24'])('rejects %j', (text) => {
    expect(() => parseBlockInterval(text)).toThrow(InvalidAddressError);
  });
});
