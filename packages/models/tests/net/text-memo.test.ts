import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { normalizeTimestamp } from '../../src/codecs/timestamp.js';
import { ValidationError } from '../../src/errors.js';
import { addressToBigInt } from '../../src/net/address.js';
import { canonicalCidr, parseCidr, parseCidrWithAddress } from '../../src/net/cidr.js';
import { TextMemo } from '../../src/net/text-memo.js';

describe('TextMemo', () => {
  it('computes a text once and hands back the same result after', () => {
    const memo = new TextMemo<string>(8);
    let calls = 0;
    const upper = (t: string): string => {
      calls += 1;
      return t.toUpperCase();
    };
    expect([memo.get('a', upper), memo.get('a', upper), memo.get('b', upper)]).toEqual(['A', 'A', 'B']);
    expect(calls).toBe(2);
  });

  it('keeps nothing for a text whose computation threw', () => {
    const memo = new TextMemo<string>(8);
    let calls = 0;
    const fail = (): string => {
      calls += 1;
      throw new Error('bad');
    };
    expect(() => memo.get('x', fail)).toThrow('bad');
    expect(() => memo.get('x', fail)).toThrow('bad');
    expect([calls, memo.size]).toEqual([2, 0]);
  });

  it('never holds more than its capacity, and still answers correctly after starting over', () => {
    const memo = new TextMemo<number>(3);
    const sizes: number[] = [];
    for (const t of ['a', 'bb', 'ccc', 'dddd', 'a', 'eeeee']) {
      expect(memo.get(t, (s) => s.length)).toBe(t.length);
      sizes.push(memo.size);
    }
    expect(sizes).toEqual([1, 2, 3, 1, 2, 3]);
  });
});

describe('memoised CIDR parsing', () => {
  it('gives every caller its own copy: changing one result does not change the next', () => {
    const first = parseCidrWithAddress('10.1.2.3/26');
    first.network = 0n;
    first.prefixLength = 1;
    expect(parseCidrWithAddress('10.1.2.3/26')).toEqual({ version: 4, network: 0x0a010200n, prefixLength: 26, address: 0x0a010203n });
    const masked = parseCidr('10.1.2.0/26');
    masked.version = 6;
    expect(parseCidr('10.1.2.0/26').version).toBe(4);
  });

  it.each(['10.0.0.0', '10.0.0.0/33', '010.0.0.0/8', 'fd00::/129', ''])('rejects %j on every call, not only the first', (text) => {
    expect(() => parseCidr(text)).toThrow(ValidationError);
    expect(() => parseCidr(text)).toThrow(ValidationError);
    expect(() => canonicalCidr(text)).toThrow(ValidationError);
  });

  it('answers the same before and after the memo has seen a text (canonical form, IPv4-mapped IPv6)', () => {
    for (const text of ['10.0.0.7/26', '::ffff:10.0.0.7/120', 'FD00:0::1/122']) {
      const cold = canonicalCidr(text);
      expect(canonicalCidr(text)).toBe(cold);
    }
    expect(canonicalCidr('::ffff:10.0.0.7/120')).toBe('10.0.0.0/24');
    expect(canonicalCidr('FD00:0::1/122')).toBe('fd00::/122');
  });

  it('reads dotted quads as ipaddr.js does (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (octets) => {
        const text = octets.join('.');
        const expected = ipaddr.IPv4.parse(text).octets.reduce((v, o) => (v << 8n) | BigInt(o), 0n);
        expect(addressToBigInt(text)).toBe(expected);
      }),
    );
  });
});

describe('memoised timestamp normalisation', () => {
  it('normalises the same text the same way every time and names the field when it fails', () => {
    expect(normalizeTimestamp('2026-08-22T15:33:20.5+02:00', 'a')).toBe('2026-08-22T13:33:20Z');
    expect(normalizeTimestamp('2026-08-22T15:33:20.5+02:00', 'b')).toBe('2026-08-22T13:33:20Z');
    expect(() => normalizeTimestamp('yesterday', 'first.path')).toThrow(/first\.path/);
    expect(() => normalizeTimestamp('yesterday', 'second.path')).toThrow(/second\.path/);
  });
});
