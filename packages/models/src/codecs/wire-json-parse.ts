import { CodecError } from '../errors.js';

// Deep enough for any Calico object, shallow enough that hostile input cannot overflow the stack.
const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};

/**
 * Parses JSON text exactly as RFC 8259 defines it, except that an integer literal outside
 * ±(2^53 − 1) becomes a `bigint` instead of a rounded double (design/calico-stored-formats.md#encoding-rules: sequence numbers
 * are Unix-nanosecond uint64s). `__proto__` keys become ordinary own properties. Duplicate keys keep
 * the last value, as Go's decoder does. Throws CodecError naming the position.
 */
export function parseWireJson(text: string): unknown {
  const fast = parseFast(text);
  if (fast !== FALLBACK) return fast;
  return parseWireJsonFull(text);
}

/** The full parser alone, without the fast path (tests compare the two; not exported by the package). */
export function parseWireJsonFull(text: string): unknown {
  const parser = new WireJsonParser(text);
  parser.skipWhitespace();
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (parser.pos < text.length) parser.fail('unexpected data after the JSON value');
  return value;
}

// ---- fast path -----------------------------------------------------------------------------
// Datastore rows are parsed on every read, so the common case goes through the native JSON.parse.
// One scan of the text (exact for valid JSON) finds the integer literals longer than 15 digits, the
// only tokens where JSON.parse and the rules above can differ, and the deepest nesting. Those
// literals are swapped for marker strings ("\u0000<index>") that are put back as exact numbers after
// parsing. Anything unusual (a failed JSON.parse, deep nesting, a "\u0000" already in the text) is
// handed to the full parser, which then decides the result or the error, so the answer is the same.

const FALLBACK: unique symbol = Symbol('fallback');
const MARKER = '\\u0000'; // the six characters of the JSON escape, not U+0000 itself
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The end of the string literal opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  while (j !== -1 && escapedQuote(text, j)) j = text.indexOf('"', j + 1);
  return j;
}

const isNumberChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;

/**
 * Whether `text` holds fewer than `limit` of `{` and `[` (inside strings too): then it cannot nest
 * `limit` deep. Native `indexOf` steps from one opener to the next, so a 7 KB block with a hundred
 * openers costs a hundred calls, not a scan of every character in JavaScript (which, in a short
 * plugin call, also got hot enough to start an optimizing compile).
 */
function fewerOpenersThan(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1 && count < limit; i = text.indexOf('{', i + 1)) count++;
  for (let i = text.indexOf('['); i !== -1 && count < limit; i = text.indexOf('[', i + 1)) count++;
  return count < limit;
}

/** Where the integer literals that need the bigint rule start and end in a text. */
interface BigLiterals {
  readonly starts: number[];
  readonly ends: number[];
}

/** An integer literal (no fraction, no exponent) of more than 15 digits, not starting with 0. */
function isBigLiteral(token: string): boolean {
  const negative = token.charCodeAt(0) === 0x2d;
  const digits = token.length - (negative ? 1 : 0);
  if (digits <= 15 || token.charCodeAt(negative ? 1 : 0) === 0x30) return false;
  for (let i = negative ? 1 : 0; i < token.length; i++) {
    const d = token.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return false;
  }
  return true;
}

/** A run of 16 or more digits: the part of a literal that may need the bigint rule. */
const LONG_DIGIT_RUNS = /[0-9]{16,}/g;

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function escapedQuote(text: string, at: number): boolean {
  let backslashes = 0;
  for (let k = at - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The big integer literals, found from the long digit runs (a native pattern search) instead of a
 * scan of every character: a run is outside a string when an even number of unescaped quotes
 * precede it (counted from quote to quote with native `indexOf`), and its literal is the run with
 * the number characters around it. A block's sequence number is a 19-digit literal, so every
 * stored block needs this; a block of a few kilobytes has a few hundred quotes and one such run.
 * Exact for valid JSON, like the scan; for text that is not, JSON.parse fails either way and the
 * full parser decides.
 */
function bigLiteralsByRuns(text: string): BigLiterals {
  const found: BigLiterals = { starts: [], ends: [] };
  let inString = false;
  let quote = text.indexOf('"');
  LONG_DIGIT_RUNS.lastIndex = 0;
  for (let m = LONG_DIGIT_RUNS.exec(text); m !== null; m = LONG_DIGIT_RUNS.exec(text)) {
    for (; quote !== -1 && quote < m.index; quote = text.indexOf('"', quote + 1)) {
      if (!escapedQuote(text, quote)) inString = !inString;
    }
    if (inString) continue;
    let start = m.index;
    while (start > 0 && isNumberChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
    if (isBigLiteral(text.slice(start, end))) {
      found.starts.push(start);
      found.ends.push(end);
    }
  }
  return found;
}

/** The big integer literals by a scan of every character, which also measures the nesting. */
function bigLiteralsByScan(text: string): BigLiterals | typeof FALLBACK {
  const found: BigLiterals = { starts: [], ends: [] };
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end === -1) return FALLBACK;
      i = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth >= MAX_DEPTH) return FALLBACK;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let digitsOnly = true;
      for (let d = c; i < n && isNumberChar(d); d = text.charCodeAt(++i)) {
        if (d < 0x30 || d > 0x39) digitsOnly = d === 0x2d && i === start && digitsOnly;
      }
      // Up to 15 digits JSON.parse is exact; longer integer literals need the bigint rule.
      const digits = i - start - (c === 0x2d ? 1 : 0);
      if (digitsOnly && digits > 15 && text.charCodeAt(i - digits) !== 0x30) {
        found.starts.push(start);
        found.ends.push(i);
      }
    } else {
      i++;
    }
  }
  return found;
}

function parseFast(text: string): unknown {
  // Unable to nest MAX_DEPTH deep: only the long digit runs need a look (none: straight to JSON.parse).
  const shallow = text.length < 2 * MAX_DEPTH || fewerOpenersThan(text, MAX_DEPTH);
  const found = shallow ? bigLiteralsByRuns(text) : bigLiteralsByScan(text);
  if (found === FALLBACK) return FALLBACK;
  const { starts: bigStarts, ends: bigEnds } = found;
  if (bigStarts.length === 0) return tryJsonParse(text);
  if (text.includes(MARKER)) return FALLBACK;
  const bigs: (number | bigint)[] = [];
  let marked = '';
  let from = 0;
  for (let k = 0; k < bigStarts.length; k++) {
    const start = bigStarts[k] ?? 0;
    const end = bigEnds[k] ?? start;
    const big = BigInt(text.slice(start, end));
    // Only a 16-digit literal can still be safe (2^53 − 1 has 16 digits).
    const safe = end - start <= 17 && big <= MAX_SAFE && big >= -MAX_SAFE;
    bigs.push(safe ? Number(big) : big);
    marked += `${text.slice(from, start)}"${MARKER}${String(k)}"`;
    from = end;
  }
  marked += text.slice(from);
  const value = tryJsonParse(marked);
  if (value === FALLBACK) return FALLBACK;
  // A marker in a key position (invalid text made valid) or lost to a duplicate key is not
  // restored: the count differs and the full parser decides.
  const restore = { bigs, restored: 0 };
  const result = restoreMarkers(restoreTopLevel(value, restore), restore);
  return restore.restored === bigs.length ? result : FALLBACK;
}

function tryJsonParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return FALLBACK;
  }
}

const isMarker = (v: unknown): v is string => typeof v === 'string' && v.charCodeAt(0) === 0 && v.length > 1;

interface Restore {
  readonly bigs: readonly (number | bigint)[];
  restored: number;
}

/**
 * The markers among the top-level members first (a block's sequence number is one): when they are
 * all, the deep walk stops at once.
 */
function restoreTopLevel(value: unknown, bigs: Restore): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  // Indexed, not `for…of`: in V8's interpreter each step of an iterator is an object (design/models.md, "Decoding without garbage").
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const item = obj[key];
    if (isMarker(item)) {
      bigs.restored++;
      obj[key] = bigs.bigs[Number(item.slice(1))];
    }
  }
  return obj;
}

/** Puts the exact numbers back where the markers are (only markers start with U+0000: see parseFast). */
function restoreMarkers(value: unknown, bigs: Restore): unknown {
  if (isMarker(value)) {
    bigs.restored++;
    return bigs.bigs[Number(value.slice(1))];
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && bigs.restored < bigs.bigs.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' || isMarker(item)) value[i] = restoreMarkers(item, bigs);
    }
    return value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    // Every marker put back: the rest holds none.
    if (bigs.restored === bigs.bigs.length) break;
    const item = obj[key];
    // An own `__proto__` data property is assigned as data, not through the prototype setter.
    if (typeof item === 'object' || isMarker(item)) obj[key] = restoreMarkers(item, bigs);
  }
  return obj;
}

// ---- full parser -----------------------------------------------------------------------------

class WireJsonParser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(problem: string): never {
    const before = this.text.slice(0, this.pos);
    const line = before.split('\n').length;
    const column = this.pos - before.lastIndexOf('\n');
    throw new CodecError(`invalid JSON at position ${this.pos} (line ${line}, column ${column}): ${problem}`);
  }

  skipWhitespace(): void {
    const { text } = this;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  parseValue(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    const c = this.text[this.pos];
    switch (c) {
      case '{': return this.parseObject(depth);
      case '[': return this.parseArray(depth);
      case '"': return this.parseString();
      case 't': return this.parseLiteral('true', true);
      case 'f': return this.parseLiteral('false', false);
      case 'n': return this.parseLiteral('null', null);
      case undefined: return this.fail('unexpected end of input');
      default:
        if (c === '-' || (c >= '0' && c <= '9')) return this.parseNumber();
        return this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`expected ${word}`);
    this.pos += word.length;
    return value;
  }

  private parseNumber(): number | bigint {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail('malformed number');
    const literal = match[0];
    const next = this.text[this.pos + literal.length];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) this.fail('malformed number');
    this.pos += literal.length;
    const isInteger = match[1] === undefined && match[2] === undefined;
    // 15 digits always fit a double exactly; longer integers are checked through bigint.
    if (!isInteger || literal.replace('-', '').length <= 15) return Number(literal);
    const big = BigInt(literal);
    const safe = big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER);
    return safe ? Number(big) : big;
  }

  private parseString(): string {
    const { text } = this;
    this.pos++; // opening quote
    let out = '';
    for (;;) {
      const start = this.pos;
      // Copy the run of characters that need no decoding in one slice.
      for (let c = text.charCodeAt(this.pos); c >= 0x20 && c !== 0x22 && c !== 0x5c; c = text.charCodeAt(this.pos)) this.pos++;
      out += text.slice(start, this.pos);
      const c = text[this.pos];
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === undefined) this.fail('unterminated string');
      if (c !== '\\') this.fail('unescaped control character in string');
      const e = text[this.pos + 1];
      if (e === 'u') {
        const hex = text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('malformed \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
        continue;
      }
      const replacement = e === undefined ? undefined : ESCAPES[e];
      if (replacement === undefined) this.fail('invalid escape sequence');
      out += replacement;
      this.pos += 2;
    }
  }

  private parseArray(depth: number): unknown[] {
    this.pos++;
    const items: unknown[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ']') return items;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or ']' in array");
      }
    }
  }

  private parseObject(depth: number): Record<string, unknown> {
    this.pos++;
    const entries: [string, unknown][] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return {};
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail('expected a string key in object');
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail("expected ':' after object key");
      this.pos++;
      this.skipWhitespace();
      entries.push([key, this.parseValue(depth + 1)]);
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      // fromEntries defines own data properties, so `__proto__` stays plain data.
      if (c === '}') return Object.fromEntries(entries);
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or '}' in object");
      }
    }
  }
}
