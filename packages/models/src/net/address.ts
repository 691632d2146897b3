import ipaddr from 'ipaddr.js';
import { ValidationError } from '../errors.js';
import type { IPVersion } from '../resources/intended-use.js';
import { formatAddress } from './format-address.js';
import { ipv4AddressValue } from './ipv4-cidr-text.js';

/** An address as a family and an unsigned integer of the family's width. */
export interface ParsedAddress {
  version: IPVersion;
  value: bigint;
}

// Go's parser accepts only four-part decimal IPv4 without leading zeros; ipaddr.js is more
// lenient (octal, hex, fewer parts), so IPv4 syntax is checked here (`ipv4AddressValue`, by hand)
// before ipaddr sees it.
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
const MAPPED_PREFIX = 0xffffn << 32n;

/** True when `text` is a plain dotted-quad IPv4 address. */
export function isIPv4(text: string): boolean {
  return ipv4AddressValue(text) !== undefined;
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
  const v4 = ipv4AddressValue(text);
  if (v4 !== undefined) return { version: 4, value: BigInt(v4) };
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

