import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ValidationError } from '../../src/errors.js';
import { blockAt, blockCountOf, blocksOf } from '../../src/net/blocks-of.js';
import { formatCidr } from '../../src/net/cidr.js';
import { addressAt, bigOrdinalOf, blockCidrFor, ordinalOf } from '../../src/net/ordinal.js';

describe('ordinalOf and addressAt', () => {
  it.each([
    ['10.0.0.0/26', '10.0.0.0', 0],
    ['10.0.0.0/26', '10.0.0.63', 63],
    ['192.168.1.64/26', '192.168.1.100', 36],
    ['fd00::/122', 'fd00::3f', 63],
    ['2001:db8:0:1::40/122', '2001:db8:0:1::41', 1],
  ])('in %s, %s is ordinal %i', (cidr, ip, ordinal) => {
    expect(ordinalOf(cidr, ip)).toBe(ordinal);
    expect(addressAt(cidr, ordinal)).toBe(ip);
  });

  it.each([
    ['10.0.0.0/26', '10.0.0.64'],
    ['10.0.0.64/26', '10.0.0.63'],
    ['10.0.0.0/26', 'fd00::1'],
    ['fd00::/122', '10.0.0.1'],
  ])('rejects %s / %s as outside the block', (cidr, ip) => {
    expect(() => ordinalOf(cidr, ip)).toThrow(`IP ${ip} not in block ${cidr}`);
  });

  it('rejects ordinals outside the block', () => {
    expect(() => addressAt('10.0.0.0/26', 64)).toThrow(ValidationError);
    expect(() => addressAt('10.0.0.0/26', -1)).toThrow(ValidationError);
  });

  it('round-trips every in-range ordinal in v4 (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), fc.integer({ min: 0, max: 32 }), fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), (net, prefix, raw) => {
        const size = 1n << BigInt(32 - prefix);
        const cidr = { version: 4 as const, network: net & ~(size - 1n) & 0xffffffffn, prefixLength: prefix };
        const ordinal = raw % size;
        const ip = addressAt(cidr, ordinal);
        expect(bigOrdinalOf(cidr, ip)).toBe(ordinal);
        expect(addressAt(formatCidr(cidr), bigOrdinalOf(formatCidr(cidr), ip))).toBe(ip);
      }),
    );
  });

  it('round-trips every in-range ordinal in v6 (property)', () => {
    const max = (1n << 128n) - 1n;
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max }), fc.integer({ min: 0, max: 128 }), fc.bigInt({ min: 0n, max }), (net, prefix, raw) => {
        const size = 1n << BigInt(128 - prefix);
        const cidr = { version: 6 as const, network: net & ~(size - 1n) & max, prefixLength: prefix };
        const ordinal = raw % size;
        const ip = addressAt(cidr, ordinal);
        expect(bigOrdinalOf(cidr, ip)).toBe(ordinal);
        expect(bigOrdinalOf(formatCidr(cidr), ip)).toBe(ordinal);
      }),
    );
  });

  it('gives ordinals that are offsets from the block base in a /20 and /116 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4095 }), (ordinal) => {
        expect(ordinalOf('10.16.0.0/20', addressAt('10.16.0.0/20', ordinal))).toBe(ordinal);
        expect(ordinalOf('fd00::/116', addressAt('fd00::/116', ordinal))).toBe(ordinal);
      }),
    );
  });
});

describe('blockCidrFor', () => {
  it.each([
    ['10.0.0.77', 26, '10.0.0.64/26'],
    ['10.0.0.77', 32, '10.0.0.77/32'],
    ['fd00::1234', 122, 'fd00::1200/122'],
    ['::ffff:10.0.0.77', 26, '10.0.0.64/26'],
  ])('puts %s in the /%i block %s', (ip, size, block) => {
    expect(blockCidrFor(ip, size)).toBe(block);
  });

  it('rejects a block size wider than the family', () => {
    expect(() => blockCidrFor('10.0.0.1', 33)).toThrow(ValidationError);
  });
});

describe('blocksOf and blockAt', () => {
  it('lists the blocks of a pool in address order', () => {
    expect([...blocksOf('10.0.0.0/24', 26)]).toEqual(['10.0.0.0/26', '10.0.0.64/26', '10.0.0.128/26', '10.0.0.192/26']);
    expect([...blocksOf('fd00::/120', 122)]).toEqual(['fd00::/122', 'fd00::40/122', 'fd00::80/122', 'fd00::c0/122']);
  });

  it('is lazy enough for a /64 pool of /122 blocks', () => {
    const gen = blocksOf('2001:db8::/64', 122);
    expect(gen.next().value).toBe('2001:db8::/122');
    expect(gen.next().value).toBe('2001:db8::40/122');
    expect(blockCountOf('2001:db8::/64', 122)).toBe(1n << 58n);
  });

  it('indexes blocks directly, agreeing with the iteration', () => {
    const all = [...blocksOf('10.0.0.0/22', 26)];
    expect(all.length).toBe(16);
    all.forEach((cidr, i) => expect(blockAt('10.0.0.0/22', 26, i)).toBe(cidr));
    expect(blockAt('2001:db8::/64', 122, (1n << 58n) - 1n)).toBe('2001:db8::ffff:ffff:ffff:ffc0/122');
  });

  it('rejects a block size smaller than the pool and indexes outside it', () => {
    expect(() => [...blocksOf('10.0.0.0/24', 20)]).toThrow(ValidationError);
    expect(() => blockAt('10.0.0.0/24', 26, 4)).toThrow(ValidationError);
    expect(() => blockAt('10.0.0.0/24', 26, -1)).toThrow(ValidationError);
  });
});
