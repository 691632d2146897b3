import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasWord, isDecimal, isHexNumber, parseStatusLine } from '../../src/http1/response-parser.js';
import { isIpLiteral } from '../../src/http1/socket-stream.js';

// The response head and the connect target are read by hand (design/ipam-datastore.md, "A small
// HTTP/1.1 client"); each reader answers as the regular expression it replaced.
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/;
const DIGITS = /^\d{1,15}$/;
const HEX = /^[0-9A-Fa-f]{1,12}$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;

const textOf = (alphabet: string, maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...alphabet.split('')), maxLength });

describe('the HTTP head read by hand', () => {
  it('reads status lines as the expression does', () => {
    const line = fc.oneof(
      fc.tuple(fc.constantFrom('HTTP/1.1 ', 'HTTP/1.0 ', 'HTTP/1.2 ', 'HTTP/2.0 ', 'http/1.1 ', 'HTTP/1.1'), textOf('0123459 OKa\r\n\u2028\u00e9', 12)).map(([a, b]) => a + b),
      textOf('HTP/1. 0259OK\r\n'),
    );
    fc.assert(
      fc.property(line, (l) => {
        const m = STATUS_LINE.exec(l);
        expect(parseStatusLine(l)).toStrictEqual(m === null ? undefined : { minor: m[1], status: Number(m[2]) });
      }),
      { numRuns: 5000 },
    );
  });

  it('tells decimal lengths, chunk sizes and words as the expressions do', () => {
    fc.assert(
      fc.property(textOf('0123456789 afgAFG\u0661', 18), (t) => {
        expect(isDecimal(t, 15)).toBe(DIGITS.test(t));
        expect(isHexNumber(t, 12)).toBe(HEX.test(t));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom('close', 'keep-alive', 'closed', 'xclose', ',', ' ', '_', '-', 'upgrade', 'é'), { maxLength: 6 }).map((p) => p.join('')), (t) => {
        expect(hasWord(t, 'close')).toBe(/\bclose\b/.test(t));
        expect(hasWord(t, 'keep-alive')).toBe(/\bkeep-alive\b/.test(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('tells IP literals as the expressions do', () => {
    fc.assert(
      fc.property(fc.oneof(textOf('0123456789.', 16), textOf('0123456789abcdefABCDEFg:.', 16), fc.constantFrom('127.0.0.1', '::1', 'localhost', '1.2.3', '1234.1.1.1', '')), (t) => {
        expect(isIpLiteral(t)).toBe(IPV4.test(t) || (t.includes(':') && IPV6_CHARS.test(t)));
      }),
      { numRuns: 5000 },
    );
  });
});
