import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasIfnameForbiddenChar, isContainerId, isHintCidr, isHintKey, isNetworkName } from '../../src/config/name-chars.js';
import { goTimestamp } from '../../src/verbs/allocation-attributes.js';

// The checks are written out instead of compiled as regular expressions (design/cni.md, "Start-up
// cost"); each answers exactly as the expression it replaced.
const CONTAINER_ID = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
const NETWORK_NAME = /^[a-zA-Z0-9_.-]+$/;
const IFNAME_FORBIDDEN = /[/:\s]/;
const HINT_KEY = /^(host|virtual):[^\s:]{1,253}:v[46]$/;
const HINT_CIDR = /^[0-9A-Fa-f:.]{2,39}\/\d{1,3}$/;

const text = fc.string({ unit: fc.constantFrom(...'aZ09_.-/: \t\n\r\u000b\u000c\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u200b\u00e9x'.split('')), maxLength: 12 });

describe('names checked by hand', () => {
  it('accepts container IDs, network names and interface names exactly as the expressions do', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(isContainerId(t)).toBe(CONTAINER_ID.test(t));
        expect(isNetworkName(t)).toBe(NETWORK_NAME.test(t));
        expect(hasIfnameForbiddenChar(t)).toBe(IFNAME_FORBIDDEN.test(t));
      }),
      { numRuns: 10000 },
    );
  });

  it('reads the hints file\'s keys and CIDRs exactly as the expressions do', () => {
    const key = fc.oneof(
      fc.tuple(fc.constantFrom('host:', 'virtual:', 'hos:', 'Host:', 'virtual', ''), fc.string({ unit: fc.constantFrom(...'ab1-.: \t\u00a0é'.split('')), maxLength: 8 }), fc.constantFrom(':v4', ':v6', ':v5', 'v4', ':V4', '')).map((p) => p.join('')),
      fc.constantFrom(`host:${'n'.repeat(253)}:v4`, `host:${'n'.repeat(254)}:v4`, 'host::v4', 'virtual:x:v6'),
    );
    const cidr = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFg:./ '.split('')), maxLength: 46 });
    fc.assert(
      fc.property(key, cidr, (k, c) => {
        expect(isHintKey(k)).toBe(HINT_KEY.test(k));
        expect(isHintCidr(c)).toBe(HINT_CIDR.test(c));
      }),
      { numRuns: 10000 },
    );
    expect(isHintCidr('10.90.246.0/26')).toBe(true);
    expect(isHintCidr('fd00:1::/122')).toBe(true);
  });

  it.each([
    ['2025-01-02T03:04:05.000Z', '2025-01-02 03:04:05 +0000 UTC'],
    ['2025-01-02T03:04:05.100Z', '2025-01-02 03:04:05.1 +0000 UTC'],
    ['2025-01-02T03:04:05.120Z', '2025-01-02 03:04:05.12 +0000 UTC'],
    ['2025-01-02T03:04:05.123Z', '2025-01-02 03:04:05.123 +0000 UTC'],
    ['2025-01-02T03:04:05.003Z', '2025-01-02 03:04:05.003 +0000 UTC'],
  ])('writes %s as Go prints it: %s', (iso, go) => {
    expect(goTimestamp(new Date(iso))).toBe(go);
  });
});
