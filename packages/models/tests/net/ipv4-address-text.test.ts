import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIPv4, parseAddress, parseRawAddress } from '../../src/net/address.js';
import { ipv4AddressValue } from '../../src/net/ipv4-cidr-text.js';
import { isWhiteSpaceCode } from '../../src/white-space-code.js';

/**
 * The dotted-quad grammar Go's parser accepts, as the regular expression models used before it read
 * addresses by hand (design/models.md, "Addresses without regular expressions").
 */
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Octets near the edges of the grammar: leading zeros, too large, too long, signs, spaces, other digits. */
const piece = fc.oneof(
  fc.nat(300).map(String),
  fc.constantFrom('0', '00', '01', '09', '099', '255', '256', '260', '300', '1000', '0255', '', '-1', '+1', ' 1', '1 ', 'a', '0x1', '\u0661', '1\n'),
);
const nearAddress = fc.oneof(
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.')),
  fc.tuple(piece, piece, piece, piece).map((o) => o.join('.')),
  fc.array(piece, { minLength: 1, maxLength: 6 }).map((o) => o.join('.')),
  fc.string({ unit: fc.constantFrom(...'0123456789.:/ \n'.split('')), maxLength: 20 }),
  fc.constantFrom('1.2.3.4', '1.2.3.4.', '.1.2.3.4', '1..2.3', '1.2.3.4/32', '::ffff:1.2.3.4', '255.255.255.255', '0.0.0.0', '1.2.3.4\n'),
);

describe('IPv4 text read by hand', () => {
  it('accepts exactly the texts the dotted-quad grammar accepts, with their value', () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearAddress, (text) => {
        const value = ipv4AddressValue(text);
        expect(value !== undefined).toBe(DOTTED_QUAD.test(text));
        expect(isIPv4(text)).toBe(DOTTED_QUAD.test(text));
        if (value === undefined) return;
        accepted += 1;
        expect(value).toBe(text.split('.').reduce((v, o) => v * 256 + Number(o), 0));
        expect(parseRawAddress(text)).toStrictEqual({ version: 4, value: BigInt(value) });
      }),
      { numRuns: 8000 },
    );
    expect(accepted).toBeGreaterThan(1000);
  });

  it.each([
    ['0.0.0.0', 0],
    ['255.255.255.255', 0xffffffff],
    ['10.90.246.3', 0x0a5af603],
    ['01.2.3.4', undefined],
    ['1.2.3.256', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['1.2.3.4 ', undefined],
    ['', undefined],
  ])('%j → %j', (text, expected) => {
    expect(ipv4AddressValue(text)).toBe(expected);
  });

  it('still reads IPv4-mapped IPv6 and its dotted tail through the IPv6 path', () => {
    expect(parseAddress('::ffff:10.0.0.1')).toStrictEqual({ version: 4, value: 0x0a000001n });
    expect(parseRawAddress('::ffff:10.0.0.1')).toStrictEqual({ version: 6, value: 0xffff0a000001n });
    expect(() => parseRawAddress('::ffff:10.0.0.01')).toThrow(/invalid IP address/);
  });
});

describe('isWhiteSpaceCode', () => {
  it('answers for every UTF-16 code unit as /\\s/ does', () => {
    for (let c = 0; c <= 0xffff; c += 1) expect(isWhiteSpaceCode(c), `U+${c.toString(16)}`).toBe(/\s/.test(String.fromCharCode(c)));
  });
});
