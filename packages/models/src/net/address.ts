import ipaddr from 'ipaddr.js';
import { ValidationError } from '../errors.js';
import type { IPVersion } from '../resources/intended-use.js';
import { formatAddress } from './format-address.js';

/** An address as a family and an unsigned integer of the family's width. */
export interface ParsedAddress {
  version: IPVersion;
  value: bigint;
}

// Go's parser accepts only four-part decimal IPv4 without leading zeros; ipaddr.js is more
// lenient (octal, hex, fewer parts), so IPv4 syntax is checked here before ipaddr sees it.
const IPV4_TEXT = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
const MAPPED_PREFIX = 0xffffn << 32n;

/** True when `text` is a plain dotted-quad IPv4 address. */
export function isIPv4(text: string): boolean {
  return IPV4_TEXT.test(text);
}

/** True when `text` is an IPv6 address (zone identifiers are not accepted). */
export function isIPv6(text: string): boolean {
  if (!IPV6_CHARS.test(text) || !text.includes(':')) return false;
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (!isIPv4(text.slice(lastColon + 1))) return false;
  }
  return ipaddr.IPv6.isValid(text);
}

/** Integer value of an ipaddr.js address. */
function valueOf(addr: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  let value = 0n;
  if (addr.kind() === 'ipv4') {
    for (const octet of (addr as ipaddr.IPv4).octets) value = (value << 8n) | BigInt(octet);
  } else {
    for (const part of (addr as ipaddr.IPv6).parts) value = (value << 16n) | BigInt(part);
  }
  return value;
}

/** The value of text that IPV4_TEXT accepted: four decimal octets, each already range-checked. */
function dottedQuadValue(text: string): bigint {
  let value = 0;
  for (const octet of text.split('.')) value = value * 256 + Number(octet);
  return BigInt(value);
}

/** True for a 128-bit value of the form ::ffff:a.b.c.d. */
export function isIPv4MappedValue(value: bigint): boolean {
  return value >> 32n === MAPPED_PREFIX >> 32n;
}

/**
 * ipaddr.js reads any dotted tail as IPv4-mapped (`::0.0.0.1` becomes `::ffff:0:1`); Go keeps
 * the 32 bits as written. Rewriting the tail as two hex groups gives Go's reading.
 */
function withHexTail(text: string): string {
  if (!text.includes('.')) return text;
  const lastColon = text.lastIndexOf(':');
  const v4 = valueOf(ipaddr.IPv4.parse(text.slice(lastColon + 1)));
  return `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
}

/**
 * Parse an address without unmapping IPv4-mapped IPv6 (CIDR parsing needs the raw family to
 * interpret the prefix length). Throws ValidationError on anything else.
 */
export function parseRawAddress(text: string): ParsedAddress {
  if (isIPv4(text)) return { version: 4, value: dottedQuadValue(text) };
  if (isIPv6(text)) return { version: 6, value: valueOf(ipaddr.IPv6.parse(withHexTail(text))) };
  throw new ValidationError(`invalid IP address ${JSON.stringify(text)}`);
}

/** Parse an address; IPv4-mapped IPv6 comes back as IPv4, as Go's net.IP does. */
export function parseAddress(text: string): ParsedAddress {
  const raw = parseRawAddress(text);
  if (raw.version === 6 && isIPv4MappedValue(raw.value)) {
    return { version: 4, value: raw.value & 0xffffffffn };
  }
  return raw;
}

/** Canonical text of an address (dotted quad, or RFC 5952). */
export function canonicalAddress(text: string): string {
  const { version, value } = parseAddress(text);
  return formatAddress(version, value);
}

/** The family of an address. */
export function ipVersionOfAddress(text: string): IPVersion {
  return parseAddress(text).version;
}

/** Integer value of an address. */
export function addressToBigInt(text: string): bigint {
  return parseAddress(text).value;
}

