import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { addressToBigInt, canonicalAddress, isIPv4, isIPv6 } from '../../src/net/address.js';
import { canonicalCidr, cidrContains, cidrSize, cidrsOverlap, ipVersionOfCidr, parseAddressOrCidr, parseCidr } from '../../src/net/cidr.js';

describe('canonicalCidr', () => {
  it.each([
    ['10.0.0.0/26', '10.0.0.0/26'],
    ['10.0.0.77/26', '10.0.0.64/26'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['255.255.255.255/32', '255.255.255.255/32'],
    ['fd00::/122', 'fd00::/122'],
    ['FD00:0000:0000:0000:0000:0000:0000:0000/122', 'fd00::/122'],
    ['2001:db8:0:1:0:0:0:40/122', '2001:db8:0:1::40/122'],
    ['2001:0db8:0000:0001::/64', '2001:db8:0:1::/64'],
    ['2001:db8:0:0:1:0:0:0/128', '2001:db8:0:0:1::/128'],
    ['2001:db8:0:0:1:0:0:1/128', '2001:db8::1:0:0:1/128'],
    ['2001:db8::1:0:0:1/128', '2001:db8::1:0:0:1/128'],
    ['1:0:1:0:1:0:1:0/128', '1:0:1:0:1:0:1:0/128'],
    ['::/0', '::/0'],
    ['::1/128', '::1/128'],
    ['::ffff:10.1.2.3/120', '10.1.2.0/24'],
    ['::ffff:0:0/96', '0.0.0.0/0'],
  ])('writes %s as %s', (input, expected) => {
    expect(canonicalCidr(input)).toBe(expected);
  });

  it.each([
    '10.0.0.0',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/-1',
    '10.0.0.0/026',
    '010.0.0.0/8',
    '10.0.0/24',
    '10.0.0.256/24',
    'fd00::/129',
    'fd00::1::/64',
    'fe80::1%eth0/64',
    ' 10.0.0.0/8',
    'garbage',
    '',
  ])('rejects %j with a ValidationError', (input) => {
    expect(() => canonicalCidr(input)).toThrow(ValidationError);
  });
});

describe('parseCidr', () => {
  it('returns the masked network as a bigint with version and prefix', () => {
    expect(parseCidr('10.0.0.77/26')).toEqual({ version: 4, network: 0x0a000040n, prefixLength: 26 });
    expect(parseCidr('fd00::5/122')).toEqual({ version: 6, network: 0xfd00n << 112n, prefixLength: 122 });
  });

  it('reads a bare address as a /32 or /128', () => {
    expect(parseAddressOrCidr('10.0.0.1')).toEqual({ version: 4, network: 0x0a000001n, prefixLength: 32 });
    expect(parseAddressOrCidr('fd00::1')).toEqual({ version: 6, network: (0xfd00n << 112n) + 1n, prefixLength: 128 });
    expect(parseAddressOrCidr('10.0.5.0/24')).toEqual({ version: 4, network: 0x0a000500n, prefixLength: 24 });
  });

  it('reports the family', () => {
    expect(ipVersionOfCidr('10.0.0.0/8')).toBe(4);
    expect(ipVersionOfCidr('fd00::/8')).toBe(6);
  });

  it('computes the size as a bigint', () => {
    expect(cidrSize('10.0.0.0/26')).toBe(64n);
    expect(cidrSize('10.0.0.1/32')).toBe(1n);
    expect(cidrSize('fd00::/122')).toBe(64n);
    expect(cidrSize('::/0')).toBe(1n << 128n);
  });
});

describe('addresses', () => {
  it.each([
    ['10.0.0.1', true, false],
    ['fd00::1', false, true],
    ['::ffff:1.2.3.4', false, true],
    ['1.2.3', false, false],
    ['01.2.3.4', false, false],
    ['0x1.2.3.4', false, false],
    ['fd00::1%eth0', false, false],
    ['fd00::1.2.3', false, false],
    ['00000::1', false, false],
    ['1::2::3', false, false],
    [':1::', false, false],
    ['1:2:3:4:5:6:7:8:9', false, false],
    ['1::2:3:4:5:6:7:8', false, false],
    ['1:2:3:4:5:6:7:1.2.3.4', false, false],
    ['1:2:3:4:5:6:1.2.3.4', false, true],
    ['::', false, true],
  ])('classifies %s (v4 %s, v6 %s)', (text, v4, v6) => {
    expect(isIPv4(text)).toBe(v4);
    expect(isIPv6(text)).toBe(v6);
  });

  it('unmaps IPv4-mapped IPv6 and writes IPv6 per RFC 5952', () => {
    expect(canonicalAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(canonicalAddress('::FFFF:a00:1')).toBe('10.0.0.1');
    expect(canonicalAddress('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalAddress('::0.0.0.1')).toBe('::1');
    expect(canonicalAddress('64:ff9b::10.0.0.1')).toBe('64:ff9b::a00:1');
  });

  it('converts to bigint', () => {
    expect(addressToBigInt('10.0.0.1')).toBe(167772161n);
  });
});

describe('cidrContains and cidrsOverlap', () => {
  it.each([
    ['10.0.0.0/16', '10.0.5.0/24', true],
    ['10.0.0.0/16', '10.0.0.0/16', true],
    ['10.0.0.0/16', '10.0.0.0/8', false],
    ['10.0.0.0/16', '10.1.0.0/24', false],
    ['10.0.0.0/16', '10.0.200.7', true],
    ['fd00::/64', 'fd00::1', true],
    ['fd00::/64', '10.0.0.1', false],
    ['0.0.0.0/0', '::/0', false],
  ])('%s contains %s: %s', (outer, inner, expected) => {
    expect(cidrContains(outer, inner)).toBe(expected);
  });

  it.each([
    ['10.0.0.0/16', '10.0.5.0/24', true],
    ['10.0.5.0/24', '10.0.0.0/16', true],
    ['10.0.0.0/24', '10.0.1.0/24', false],
    ['169.254.0.0/16', '169.0.0.0/8', true],
    ['fe80::/10', 'febf::/16', true],
    ['fe80::/10', 'fec0::/10', false],
    ['10.0.0.0/8', 'fd00::/8', false],
  ])('%s overlaps %s: %s', (a, b, expected) => {
    expect(cidrsOverlap(a, b)).toBe(expected);
  });
});
