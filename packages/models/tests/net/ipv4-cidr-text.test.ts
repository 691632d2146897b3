import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalCidr, formatCidr, parseCidrText } from '../../src/net/cidr.js';
import { parseIpv4CidrText } from '../../src/net/ipv4-cidr-text.js';

/** The general parser's answer, or the fact that it refuses the text. */
function general(text: string): unknown {
  try {
    return { ...parseCidrText(text) };
  } catch {
    return 'refused';
  }
}

/** Texts near the IPv4 CIDR shape: octets and prefixes with leading zeros, too large, too long. */
const piece = fc.oneof(fc.nat(300).map(String), fc.constantFrom('0', '00', '01', '255', '256', '1000', '', '-1', '+1', ' 1', '1 ', 'a', '0x1'));
const validCidr = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(32)).map(([a, b, c, d, p]) => `${a}.${b}.${c}.${d}/${p}`);
const nearCidr = fc.oneof(
  validCidr,
  fc.tuple(piece, piece, piece, piece, fc.oneof(fc.nat(40).map(String), fc.constantFrom('0', '00', '08', '32', '33', '100', '', '1/2'))).map(
    ([a, b, c, d, p]) => `${a}.${b}.${c}.${d}/${p}`,
  ),
  fc.string({ unit: fc.constantFrom(...'0123456789./:'.split('')), maxLength: 20 }),
  fc.constantFrom('10.0.0.0', '::ffff:10.0.0.0/120', '10.0.0.0/26/1', '10.0.0.0.0/26', '10.0.0/26', '1.2.3.4/32', '0.0.0.0/0'),
);

describe('parseIpv4CidrText', () => {
  it('answers exactly as the general parser does, and for every plain IPv4 CIDR that parser accepts', () => {
    let answered = 0;
    fc.assert(
      fc.property(nearCidr, (text) => {
        const direct = parseIpv4CidrText(text);
        const expected = general(text);
        if (direct === undefined) {
          // Declined: the general parser refuses it, or it is not the plain shape (mapped IPv6).
          if (expected !== 'refused') expect(text).toContain(':');
          return;
        }
        answered += 1;
        expect({ ...direct }).toStrictEqual(expected);
      }),
      { numRuns: 5000 },
    );
    expect(answered).toBeGreaterThan(1000);
  });

  it('leaves canonicalCidr answering as formatting the general parse does', () => {
    fc.assert(
      fc.property(nearCidr, (text) => {
        const expected = general(text);
        if (expected === 'refused') expect(() => canonicalCidr(text)).toThrow();
        else expect(canonicalCidr(text)).toBe(formatCidr(parseCidrText(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the ends of the range, and host bits stay in the address only', () => {
    expect(parseIpv4CidrText('255.255.255.255/32')).toStrictEqual({ version: 4, network: 0xffffffffn, prefixLength: 32, address: 0xffffffffn });
    expect(parseIpv4CidrText('0.0.0.0/0')).toStrictEqual({ version: 4, network: 0n, prefixLength: 0, address: 0n });
    const parsed = parseIpv4CidrText('10.0.0.77/26');
    expect(parsed === undefined ? undefined : formatCidr(parsed)).toBe('10.0.0.64/26');
    expect(parsed?.address).toBe(0x0a00004dn);
    expect(parseIpv4CidrText('128.0.0.1/1')?.network).toBe(0x80000000n);
  });
});
