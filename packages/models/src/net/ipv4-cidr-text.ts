/** What `parseCidrText` gives for a CIDR; repeated here so this module stays a leaf. */
interface ParsedIpv4Cidr {
  readonly version: 4;
  readonly network: bigint;
  readonly prefixLength: number;
  readonly address: bigint;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const DOT = 0x2e;
const SLASH = 0x2f;

/**
 * The number at text[from] of at most `maxDigits` decimal digits without a leading zero (a lone
 * `0` is fine), and where it ends; undefined for anything else.
 */
function decimalAt(text: string, from: number, maxDigits: number): { readonly value: number; readonly end: number } | undefined {
  let i = from;
  let value = 0;
  while (i < text.length && i - from < maxDigits + 1) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    value = value * 10 + (c - DIGIT_0);
    i += 1;
  }
  const digits = i - from;
  if (digits === 0 || digits > maxDigits || (digits > 1 && text.charCodeAt(from) === DIGIT_0)) return undefined;
  return { value, end: i };
}

/**
 * Four decimal octets of 0–255 without leading zeros, separated by dots, from the start of `text`:
 * their value and where they end, or undefined.
 */
function dottedQuadAt(text: string): { readonly address: number; readonly end: number } | undefined {
  let pos = 0;
  let address = 0;
  for (let octet = 0; octet < 4; octet += 1) {
    const read = decimalAt(text, pos, 3);
    if (read === undefined || read.value > 255) return undefined;
    address = address * 256 + read.value;
    if (octet === 3) return { address, end: read.end };
    if (text.charCodeAt(read.end) !== DOT) return undefined;
    pos = read.end + 1;
  }
  return undefined;
}

/**
 * The value of a plain dotted-quad IPv4 address (four decimal octets of 0–255 without leading
 * zeros, nothing before or after), or undefined for any other text. Read by hand: a regular
 * expression costs a short-lived process its compilation, several hundred microseconds for this
 * one (design/models.md, "Addresses without regular expressions").
 */
export function ipv4AddressValue(text: string): number | undefined {
  const quad = dottedQuadAt(text);
  return quad !== undefined && quad.end === text.length ? quad.address : undefined;
}

/**
 * A plain IPv4 CIDR (`a.b.c.d/p`: four decimal octets without leading zeros, a prefix of 0–32
 * without one) read with number arithmetic, or undefined for any other text, which then goes the
 * general way (design/models.md, "CIDR math and names"). It accepts exactly the texts of that
 * shape the general parser accepts and gives the same numbers; a block scan reads 100,000 of them,
 * each once, where the general parser's regular expressions and the memo cost more than the parse.
 */
export function parseIpv4CidrText(text: string): ParsedIpv4Cidr | undefined {
  const quad = dottedQuadAt(text);
  if (quad === undefined || text.charCodeAt(quad.end) !== SLASH) return undefined;
  const { address } = quad;
  const prefix = decimalAt(text, quad.end + 1, 2);
  if (prefix === undefined || prefix.end !== text.length || prefix.value > 32) return undefined;
  const network = prefix.value === 0 ? 0 : address - (address % 2 ** (32 - prefix.value));
  return { version: 4, network: BigInt(network), prefixLength: prefix.value, address: BigInt(address) };
}
