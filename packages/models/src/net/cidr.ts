import { ValidationError } from '../errors.js';
import type { IPVersion } from '../resources/intended-use.js';
import { isIPv4MappedValue, parseRawAddress } from './address.js';
import { formatAddress } from './format-address.js';
import { parseIpv4CidrText } from './ipv4-cidr-text.js';
import { bitsOf, maskOf } from './ip-version-bits.js';
import { TextMemo } from './text-memo.js';

/** A CIDR as numbers: the masked network and its prefix length. */
export interface ParsedCidr {
  version: IPVersion;
  network: bigint;
  prefixLength: number;
}

/** A parsed CIDR plus the address exactly as written (before masking). */
export interface ParsedCidrWithAddress extends ParsedCidr {
  address: bigint;
}

const PREFIX_TEXT = /^(?:0|[1-9]\d{0,2})$/;

/**
 * CIDR texts parsed lately. The same few texts (a node's blocks, the pools) are parsed on every
 * allocation, several times over (pool qualification, block keys, wire forms).
 */
const PARSED_CIDRS = new TextMemo<Readonly<ParsedCidrWithAddress>>(4096);

/** Canonical texts of CIDR texts seen lately (the block key and wire form of every write). */
const CANONICAL_CIDRS = new TextMemo<string>(4096);

/**
 * Parse `addr/prefix`, keeping the written address too. IPv4-mapped IPv6 with a prefix of at
 * least 96 becomes the IPv4 CIDR Go prints for it (design/calico-stored-formats.md#encoding-rules).
 */
export function parseCidrWithAddress(text: string): ParsedCidrWithAddress {
  // A copy: callers own what they get, the memo keeps its frozen original.
  return { ...parsedCidr(text) };
}

/**
 * The parse of `text`: a plain IPv4 CIDR is read directly, and is not memoised (reading it costs
 * less than the memo, and a scan of every block must not evict the texts in use); any other text
 * goes through the memo and `parseCidrText`.
 */
function parsedCidr(text: string): Readonly<ParsedCidrWithAddress> {
  return parseIpv4CidrText(text) ?? PARSED_CIDRS.get(text, parseCidrText);
}

/** The general parser of a CIDR text (exported for the tests that compare the direct IPv4 reader with it). */
export function parseCidrText(text: string): Readonly<ParsedCidrWithAddress> {
  const slash = text.indexOf('/');
  if (slash < 0) throw new ValidationError(`invalid CIDR ${JSON.stringify(text)}: missing "/prefix"`);
  const prefixText = text.slice(slash + 1);
  if (!PREFIX_TEXT.test(prefixText)) {
    throw new ValidationError(`invalid CIDR ${JSON.stringify(text)}: bad prefix length`);
  }
  let address: ReturnType<typeof parseRawAddress>;
  try {
    address = parseRawAddress(text.slice(0, slash));
  } catch (err) {
    throw new ValidationError(`invalid CIDR ${JSON.stringify(text)}: bad address`, { cause: err });
  }
  let version = address.version;
  let value = address.value;
  let prefixLength = Number(prefixText);
  if (prefixLength > bitsOf(version)) {
    throw new ValidationError(`invalid CIDR ${JSON.stringify(text)}: prefix length exceeds ${bitsOf(version)}`);
  }
  if (version === 6 && prefixLength >= 96 && isIPv4MappedValue(value)) {
    version = 4;
    value &= 0xffffffffn;
    prefixLength -= 96;
  }
  return Object.freeze({ version, network: value & maskOf(version, prefixLength), prefixLength, address: value });
}

/** Parse and mask a CIDR. Throws ValidationError on malformed text. */
export function parseCidr(text: string): ParsedCidr {
  const { version, network, prefixLength } = parsedCidr(text);
  return { version, network, prefixLength };
}

/** A bare address is read as a single-address CIDR (/32 or /128). */
export function parseAddressOrCidr(text: string): ParsedCidr {
  if (text.includes('/')) return parseCidr(text);
  return parseCidr(`${text}/${text.includes(':') ? 128 : 32}`);
}

/** Canonical text of parsed CIDR numbers. */
export function formatCidr(cidr: ParsedCidr): string {
  return `${formatAddress(cidr.version, cidr.network)}/${cidr.prefixLength}`;
}

/** Masked canonical text of a CIDR (design/calico-stored-formats.md#encoding-rules): `10.0.0.7/26` → `10.0.0.0/26`. */
export function canonicalCidr(text: string): string {
  // A plain IPv4 CIDR without host bits is its own canonical text: the direct reader accepts no
  // leading zeros, and formatting its numbers writes the same digits back.
  const ipv4 = parseIpv4CidrText(text);
  if (ipv4 !== undefined && ipv4.address === ipv4.network) return text;
  return CANONICAL_CIDRS.get(text, (t) => formatCidr(parseCidr(t)));
}

/** The family of a CIDR. */
export function ipVersionOfCidr(cidr: string): IPVersion {
  return parsedCidr(cidr).version;
}

/** Number of addresses in a CIDR. */
export function cidrSize(cidr: string | ParsedCidr): bigint {
  const c = typeof cidr === 'string' ? parseCidr(cidr) : cidr;
  return 1n << BigInt(bitsOf(c.version) - c.prefixLength);
}

function asParsed(cidr: string | ParsedCidr): ParsedCidr {
  return typeof cidr === 'string' ? parseAddressOrCidr(cidr) : cidr;
}

/** True when `inner` (a CIDR or bare address) lies wholly inside `outer`. Families never mix. */
export function cidrContains(outer: string | ParsedCidr, inner: string | ParsedCidr): boolean {
  const o = asParsed(outer);
  const i = asParsed(inner);
  if (o.version !== i.version || i.prefixLength < o.prefixLength) return false;
  return (i.network & maskOf(o.version, o.prefixLength)) === o.network;
}

/** True when two CIDRs share at least one address. */
export function cidrsOverlap(a: string | ParsedCidr, b: string | ParsedCidr): boolean {
  const x = asParsed(a);
  const y = asParsed(b);
  if (x.version !== y.version) return false;
  const shorter = Math.min(x.prefixLength, y.prefixLength);
  const mask = maskOf(x.version, shorter);
  return (x.network & mask) === (y.network & mask);
}
