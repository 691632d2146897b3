import { isWhiteSpaceCode } from '@ipamkit/models';

/**
 * The keys whose values are credentials in a kubeconfig, a JSON body or a YAML excerpt, in the
 * order they are tried at a position (design/ipam-datastore.md, "Configuration", redaction).
 */
export const CREDENTIAL_KEY_NAMES = ['token', 'id-token', 'refresh-token', 'access-token', 'password', 'client-key-data', 'client-secret', 'secret'] as const;

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const COLON = 0x3a;

/** A character of `\w` (letters, digits and `_` of ASCII), which `\b` tells apart from the rest. */
function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

const isQuote = (c: number): boolean => c === QUOTE || c === APOSTROPHE;

/** True when `key` (lower-case ASCII) is at text[at], letters compared without case. */
function keyAt(text: string, at: number, key: string): boolean {
  if (at + key.length > text.length) return false;
  for (let k = 0; k < key.length; k += 1) {
    let c = text.charCodeAt(at + k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== key.charCodeAt(k)) return false;
  }
  return true;
}

/** Where the value after a key that ends at `from` starts and ends, or undefined when no value follows. */
function valueAfter(text: string, from: number): { readonly start: number; readonly end: number } | undefined {
  let i = from;
  if (i < text.length && isQuote(text.charCodeAt(i))) i += 1;
  while (i < text.length && isWhiteSpaceCode(text.charCodeAt(i))) i += 1;
  if (text.charCodeAt(i) !== COLON) return undefined;
  i += 1;
  while (i < text.length && isWhiteSpaceCode(text.charCodeAt(i))) i += 1;
  if (i < text.length && isQuote(text.charCodeAt(i))) i += 1;
  const start = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWhiteSpaceCode(c) || isQuote(c)) break;
    i += 1;
  }
  return i > start ? { start, end: i } : undefined;
}

/**
 * The values of credential keys in `text` (`token: abc`, `"password": "x"`, …): each key at a word
 * start, any letter case, an optional quote, a colon, an optional quote, then the value up to white
 * space or a quote. Found by a scan, not a regular expression: a process that redacts one line would
 * otherwise compile a case-insensitive expression of eight alternatives first, about half a
 * millisecond (design/ipam-datastore.md, "Configuration"). Matches are taken left to right and do not
 * overlap, so a value is never searched for keys.
 */
export function credentialValuesIn(text: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < text.length) {
    const atWordStart = i === 0 || !isWordChar(text.charCodeAt(i - 1));
    let next = i + 1;
    if (atWordStart && isWordChar(text.charCodeAt(i))) {
      // Indexed: `for…of` makes an iterator at every word start, which the interpreter a plugin
      // call runs in does not optimize away (design/models.md, "Decoding without garbage").
      for (let k = 0; k < CREDENTIAL_KEY_NAMES.length; k++) {
        const key = CREDENTIAL_KEY_NAMES[k] as string;
        if (!keyAt(text, i, key)) continue;
        const value = valueAfter(text, i + key.length);
        if (value === undefined) continue;
        found.push(text.slice(value.start, value.end));
        next = value.end;
        break;
      }
    }
    i = next;
  }
  return found;
}
