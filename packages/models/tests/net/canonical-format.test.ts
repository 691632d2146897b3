import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { canonicalAddress } from '../../src/net/address.js';
import { formatAddress } from '../../src/net/format-address.js';
import { canonicalCidr, parseCidr } from '../../src/net/cidr.js';
import { formatIPv6 } from '../../src/net/format-address.js';

/**
 * A second RFC 5952 formatter written differently from the production one: expand to eight groups,
 * then try zero-run lengths from longest to shortest and collapse the first match.
 */
function referenceIPv6(value: bigint): string {
  const groups = value.toString(16).padStart(32, '0').match(/.{4}/g)!.map((g) => parseInt(g, 16).toString(16));
  for (let len = 8; len >= 2; len--) {
    for (let start = 0; start + len <= 8; start++) {
      if (groups.slice(start, start + len).every((g) => g === '0')) {
        return `${groups.slice(0, start).join(':')}::${groups.slice(start + len).join(':')}`;
      }
    }
  }
  return groups.join(':');
}

function referenceIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => ((value >> s) & 255n).toString()).join('.');
}

/** 128-bit values biased towards zero groups, where RFC 5952 has its corner cases. */
const v6Value = fc
  .array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 })
  .map((groups) => groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n));
const v4Value = fc.bigInt({ min: 0n, max: 0xffffffffn });
const MAPPED = 0xffffn << 32n;

/** A non-canonical spelling of an address: full form, leading zeros, upper case. */
function sloppyIPv6(value: bigint, upper: boolean): string {
  const text = value.toString(16).padStart(32, '0').match(/.{4}/g)!.join(':');
  return upper ? text.toUpperCase() : text;
}

describe('canonical IPv6 formatting (property)', () => {
  it('matches an independent RFC 5952 formatter', () => {
    fc.assert(
      fc.property(v6Value, (value) => {
        expect(formatIPv6(value)).toBe(referenceIPv6(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with ipaddr.js's toRFC5952String outside the IPv4-mapped range", () => {
    fc.assert(
      fc.property(v6Value, (value) => {
        fc.pre(value >> 32n !== MAPPED >> 32n);
        const parts = value.toString(16).padStart(32, '0').match(/.{4}/g)!.map((g) => parseInt(g, 16));
        expect(canonicalAddress(sloppyIPv6(value, false))).toBe(new ipaddr.IPv6(parts).toRFC5952String());
      }),
      { numRuns: 1000 },
    );
  });

  it('is a fixed point: canonical(parse(canonical(x))) === canonical(x)', () => {
    fc.assert(
      fc.property(v6Value, fc.boolean(), fc.integer({ min: 0, max: 128 }), (value, upper, prefix) => {
        const once = canonicalCidr(`${sloppyIPv6(value, upper)}/${prefix}`);
        expect(canonicalCidr(once)).toBe(once);
        const parsed = parseCidr(once);
        expect(canonicalCidr(`${formatAddress(parsed.version, parsed.network)}/${parsed.prefixLength}`)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('unmaps IPv4-mapped addresses to dotted quads', () => {
    fc.assert(
      fc.property(v4Value, (v4) => {
        expect(canonicalAddress(sloppyIPv6(MAPPED | v4, true))).toBe(referenceIPv4(v4));
      }),
    );
  });
});

describe('canonical IPv4 formatting (property)', () => {
  it('matches the reference dotted quad and ipaddr.js, and is a fixed point', () => {
    fc.assert(
      fc.property(v4Value, fc.integer({ min: 0, max: 32 }), (value, prefix) => {
        const text = referenceIPv4(value);
        expect(canonicalAddress(text)).toBe(text);
        expect(canonicalAddress(text)).toBe(ipaddr.IPv4.parse(text).toString());
        const once = canonicalCidr(`${text}/${prefix}`);
        expect(canonicalCidr(once)).toBe(once);
        const mask = prefix === 0 ? 0n : (0xffffffffn << BigInt(32 - prefix)) & 0xffffffffn;
        expect(once).toBe(`${referenceIPv4(value & mask)}/${prefix}`);
      }),
      { numRuns: 1000 },
    );
  });
});
