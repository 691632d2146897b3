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
  if (fast !== BAIL && fast !== undefined) return fast;
  const text = write(value, '$', new Set());
  if (text === undefined) throw new CodecError('$: value has no JSON representation');
  return text;
}

// ---- fast path -----------------------------------------------------------------------------
// Every datastore write encodes a row, so the common case (plain objects, arrays, Maps, primitives)
// is written without the error path strings and the cycle set. Whatever needs them, or calls user
// code (a non-finite number, a non-string Map key, toJSON, nesting deep enough to be a cycle), bails
// out and the full writer below produces the identical text or the error.

const BAIL: unique symbol = Symbol('bail');
const MAX_FAST_DEPTH = 512;

function writeFast(value: unknown, depth: number): string | undefined | typeof BAIL {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'number': return Number.isFinite(value) ? String(value) : BAIL;
    case 'object': break;
    default: return undefined;
  }
  if (depth > MAX_FAST_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return BAIL;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += ',';
      // A hole stays empty, as Array.prototype.map and join leave it in the full writer.
      if (!(i in items)) continue;
      const text = writeFast(items[i], depth + 1);
      if (text === BAIL) return BAIL;
      out += text ?? 'null';
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  const member = (key: unknown, item: unknown): boolean => {
    if (typeof key !== 'string') return false;
    const text = writeFast(item, depth + 1);
    if (text === BAIL) return false;
    if (text === undefined) return true;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
    return true;
  };
  if (value instanceof Map) {
    for (const [key, item] of value as Map<unknown, unknown>) if (!member(key, item)) return BAIL;
  } else {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) if (!member(key, obj[key])) return BAIL;
  }
  return `${out}}`;
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
