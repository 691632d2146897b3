/**
 * True for a UTF-16 code unit that ECMAScript's `\s` matches: white space and line terminators.
 * For hand-written text checks that replace a regular expression on a short-lived process's path
 * (design/models.md, "Addresses without regular expressions").
 */
export function isWhiteSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
