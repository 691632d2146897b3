import { CodecError } from '../errors.js';

// Deep enough for any Calico object, shallow enough that hostile input cannot overflow the stack.
const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};

/**
 * Parses JSON text exactly as RFC 8259 defines it, except that an integer literal outside
 * ±(2^53 − 1) becomes a `bigint` instead of a rounded double (datastore.md §2.4: sequence numbers
 * are Unix-nanosecond uint64s). `__proto__` keys become ordinary own properties. Duplicate keys keep
 * the last value, as Go's decoder does. Throws CodecError naming the position.
 */
export function parseWireJson(text: string): unknown {
  const parser = new WireJsonParser(text);
  parser.skipWhitespace();
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (parser.pos < text.length) parser.fail('unexpected data after the JSON value');
  return value;
}

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
