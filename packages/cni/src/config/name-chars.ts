// The character checks of the CNI environment and the network config, written out instead of as
// regular expressions: a plugin call is a fresh process, and compiling each expression on its first
// use cost more than the check (design/cni.md, "Start-up cost").

import { isWhiteSpaceCode } from '@ipamkit/models';

const isAsciiAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameMark = (c: number): boolean => c === 0x5f || c === 0x2e || c === 0x2d;

/** A container ID as the CNI library accepts it: a letter or digit, then letters, digits, `_`, `.` and `-`. */
export function isContainerId(text: string): boolean {
  if (text.length === 0 || !isAsciiAlnum(text.charCodeAt(0))) return false;
  for (let i = 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (!isAsciiAlnum(c) && !isNameMark(c)) return false;
  }
  return true;
}

/** A network name: one or more letters, digits, `_`, `.` and `-`. */
export function isNetworkName(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (!isAsciiAlnum(c) && !isNameMark(c)) return false;
  }
  return true;
}

/** An interface name holding `/`, `:` or white space, which the kernel refuses. */
export function hasIfnameForbiddenChar(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    const c = name.charCodeAt(i);
    if (c === 0x2f || c === 0x3a || isWhiteSpaceCode(c)) return true;
  }
  return false;
}

/** A read hints key: `host:` or `virtual:`, a name of 1–253 characters without white space or `:`, then `:v4` or `:v6`. */
export function isHintKey(text: string): boolean {
  const kind = text.startsWith('host:') ? 5 : text.startsWith('virtual:') ? 8 : 0;
  if (kind === 0 || text.length < kind + 4) return false;
  const end = text.length - 3;
  if (text.charCodeAt(end) !== 0x3a || text.charCodeAt(end + 1) !== 0x76 || (text[end + 2] !== '4' && text[end + 2] !== '6')) return false;
  const nameLength = end - kind;
  if (nameLength < 1 || nameLength > 253) return false;
  for (let i = kind; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || isWhiteSpaceCode(c)) return false;
  }
  return true;
}

/** A read hints CIDR: 2–39 hex digits, `:` and `.`, then `/` and 1–3 decimal digits. */
export function isHintCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 2 || slash > 39 || text.length - slash - 1 < 1 || text.length - slash - 1 > 3) return false;
  for (let i = 0; i < slash; i += 1) {
    const c = text.charCodeAt(i);
    const hex = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    if (!hex && c !== 0x3a && c !== 0x2e) return false;
  }
  for (let i = slash + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
