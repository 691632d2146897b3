/**
 * JSON that keeps integers beyond 2^53 exact: the API server stores int64 fields (block sequence
 * numbers are Unix nanoseconds), and `JSON.parse` would round them. Integers that a double holds
 * exactly stay numbers; larger ones become bigint. Kept local so the test server depends on no
 * codec under test.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = Record<string, JsonValue>;

/** A JSON object: not null, not an array. */
export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

export function parseLosslessJson(text: string): JsonValue {
  let pos = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`invalid JSON: ${what} at offset ${pos}`);
  };
  const skipWs = (): void => {
    while (pos < text.length && ' \t\r\n'.includes(text.charAt(pos))) pos += 1;
  };
  const parseString = (): string => {
    const start = pos;
    pos += 1;
    while (pos < text.length) {
      const ch = text.charAt(pos);
      if (ch === '\\') pos += 2;
      else if (ch === '"') {
        pos += 1;
        return JSON.parse(text.slice(start, pos)) as string;
      } else pos += 1;
    }
    return fail('unterminated string');
  };
  const parseNumber = (): number | bigint => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (match === null) return fail('bad number');
    const literal = match[0];
    pos += literal.length;
    const isInteger = match[2] === undefined && match[3] === undefined;
    if (isInteger) {
      const big = BigInt(literal);
      return big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER) ? big : Number(literal);
    }
    return Number(literal);
  };
  const parseValue = (): JsonValue => {
    skipWs();
    const ch = text.charAt(pos);
    if (ch === '{') {
      pos += 1;
      const out: Record<string, JsonValue> = {};
      skipWs();
      if (text.charAt(pos) === '}') {
        pos += 1;
        return out;
      }
      for (;;) {
        skipWs();
        if (text.charAt(pos) !== '"') fail('expected a key');
        const key = parseString();
        skipWs();
        if (text.charAt(pos) !== ':') fail('expected ":"');
        pos += 1;
        Object.defineProperty(out, key, { value: parseValue(), enumerable: true, writable: true, configurable: true });
        skipWs();
        const sep = text.charAt(pos);
        pos += 1;
        if (sep === '}') return out;
        if (sep !== ',') fail('expected "," or "}"');
      }
    }
    if (ch === '[') {
      pos += 1;
      const out: JsonValue[] = [];
      skipWs();
      if (text.charAt(pos) === ']') {
        pos += 1;
        return out;
      }
      for (;;) {
        out.push(parseValue());
        skipWs();
        const sep = text.charAt(pos);
        pos += 1;
        if (sep === ']') return out;
        if (sep !== ',') fail('expected "," or "]"');
      }
    }
    if (ch === '"') return parseString();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    return parseNumber();
  };
  const value = parseValue();
  skipWs();
  if (pos !== text.length) fail('trailing characters');
  return value;
}

export function stringifyLosslessJson(value: unknown): string {
  // bigint goes out as a bare JSON number: mark it, then strip the quotes around the marker.
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
