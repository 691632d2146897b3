import { CodecError } from '../errors.js';

/**
 * The inverse of parseWireJson: JSON text where a `bigint` is written as a plain JSON number.
 * A `Map` is written as an object in the Map's iteration order, which lets encoders reproduce Go's
 * sorted map keys (a plain object would put integer-like keys first). `undefined`, functions and
 * symbols are skipped in objects and written as `null` in arrays, as JSON.stringify does; objects
 * with `toJSON` (Date) are serialised through it. Non-finite numbers and cycles throw CodecError
 * rather than being silently corrupted.
 */
export function stringifyWireJson(value: unknown): string {
  const fast = writeFast(value, 0);
  if (fast === PURE) return JSON.stringify(value);
  if (typeof fast === 'string') return fast;
  return stringifyWireJsonFull(value);
}

/**
 * stringifyWireJson without the fast path: the reference its fast path is tested against. Not
 * exported from the package.
 */
export function stringifyWireJsonFull(value: unknown): string {
  const text = write(value, '$', new Set());
  if (text === undefined) throw new CodecError('$: value has no JSON representation');
  return text;
}

// ---- fast path -----------------------------------------------------------------------------
// Every datastore write encodes a row (a full /26 block is about 17 KB), so the common case skips
// the error path strings and the cycle set, and most of it is written by the native JSON.stringify.
// One walk classifies each value: PURE (strings, finite numbers, booleans, null, and plain objects
// and arrays of those, where skipped members may appear too) is text the native writer renders
// byte for byte as the full writer does, so a PURE subtree is handed to it whole; only the values
// above a bigint, a Map, an array hole or an object of another prototype are assembled here.
// Whatever needs the error paths or calls user code (a non-finite number, a non-string Map key,
// toJSON, nesting deep enough to be a cycle) bails out and the full writer below produces the
// identical text or the error. A member before the first non-PURE sibling is read a second time
// when its parent is assembled here (as the full writer reads everything again after a bail-out).

const BAIL: unique symbol = Symbol('bail');
const PURE: unique symbol = Symbol('pure');
const MAX_FAST_DEPTH = 512;

/** PURE, BAIL, undefined (no JSON representation: skipped) or the text assembled here. */
type Fast = string | undefined | typeof PURE | typeof BAIL;

function writeFast(value: unknown, depth: number): Fast {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return PURE;
    case 'number':
      return Number.isFinite(value) ? PURE : BAIL;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return PURE;
  if (depth > MAX_FAST_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return BAIL;
  if (Array.isArray(value)) return writeArray(value, depth + 1);
  if (value instanceof Map) return writeMap(value as Map<unknown, unknown>, depth + 1);
  // The native writer unwraps boxed primitives: only a plain object may be left to it.
  const proto: unknown = Object.getPrototypeOf(value);
  return writeObject(value as Record<string, unknown>, depth + 1, proto === Object.prototype || proto === null);
}

/** The text of a member whose walk answered `fast` (not BAIL). */
const memberText = (item: unknown, fast: Fast): string | undefined => (fast === PURE ? JSON.stringify(item) : (fast as string | undefined));

/** `out` (an object's text so far, from its `{`) with `key` appended, unless the value is skipped (`text` undefined). */
function withMember(out: string, key: string, text: string | undefined): string {
  if (text === undefined) return out;
  return (out.length > 1 ? out + ',' : out) + JSON.stringify(key) + ':' + text;
}

function writeArray(items: unknown[], depth: number): Fast {
  const n = items.length;
  let i = 0;
  let first: Fast = PURE;
  for (; i < n; i++) {
    const item = items[i];
    // A hole stays empty, as Array.prototype.map and join leave it in the full writer.
    if (item === undefined && !(i in items)) {
      first = '';
      break;
    }
    first = writeFast(item, depth);
    if (first === BAIL) return BAIL;
    if (typeof first === 'string') break;
  }
  if (i === n) return PURE;
  // Items before `i` are PURE or skipped; item `i` is written as `first`.
  let out = '[';
  for (let j = 0; j < i; j++) {
    const item = items[j];
    out += isSkipped(item) ? 'null,' : JSON.stringify(item) + ',';
  }
  out += first as string;
  for (let j = i + 1; j < n; j++) {
    out += ',';
    const item = items[j];
    if (item === undefined && !(j in items)) continue;
    const fast = writeFast(item, depth);
    if (fast === BAIL) return BAIL;
    out += memberText(item, fast) ?? 'null';
  }
  return out + ']';
}

function writeObject(obj: Record<string, unknown>, depth: number, plain: boolean): Fast {
  const keys = Object.keys(obj);
  const n = keys.length;
  let i = 0;
  let first: Fast = PURE;
  if (plain) {
    for (; i < n; i++) {
      first = writeFast(obj[keys[i] as string], depth);
      if (first === BAIL) return BAIL;
      if (typeof first === 'string') break;
    }
    if (i === n) return PURE;
  }
  // Members before `i` are PURE or skipped; member `i` (of a plain object) is written as `first`.
  let out = '{';
  for (let j = 0; j < i; j++) {
    const key = keys[j] as string;
    const item = obj[key];
    if (!isSkipped(item)) out = withMember(out, key, JSON.stringify(item));
  }
  for (let j = i; j < n; j++) {
    const key = keys[j] as string;
    const item = plain && j === i ? undefined : obj[key];
    const fast = plain && j === i ? first : writeFast(item, depth);
    if (fast === BAIL) return BAIL;
    out = withMember(out, key, memberText(item, fast));
  }
  return out + '}';
}

function writeMap(map: Map<unknown, unknown>, depth: number): Fast {
  let out = '{';
  for (const [key, item] of map) {
    if (typeof key !== 'string') return BAIL;
    const fast = writeFast(item, depth);
    if (fast === BAIL) return BAIL;
    out = withMember(out, key, memberText(item, fast));
  }
  return out + '}';
}

// ---- full writer -----------------------------------------------------------------------------

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, path: string, stack: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new CodecError(`${path}: ${value} is not representable in JSON`);
      return JSON.stringify(value);
    case 'object': break;
    default: return undefined;
  }
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') {
    return write((withToJson.toJSON as () => unknown).call(value), path, stack);
  }
  if (stack.has(value)) throw new CodecError(`${path}: circular reference`);
  stack.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item: unknown, i) => (isSkipped(item) ? 'null' : (write(item, `${path}[${i}]`, stack) ?? 'null')));
      return `[${items.join(',')}]`;
    }
    const entries: Iterable<[unknown, unknown]> = value instanceof Map ? value.entries() : Object.entries(value);
    const parts: string[] = [];
    for (const [key, item] of entries) {
      if (typeof key !== 'string') throw new CodecError(`${path}: map key ${String(key)} is not a string`);
      if (isSkipped(item)) continue;
      const text = write(item, `${path}.${key}`, stack);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    stack.delete(value);
  }
}
