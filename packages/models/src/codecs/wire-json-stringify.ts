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
  const text = write(value, '$', new Set());
  if (text === undefined) throw new CodecError('$: value has no JSON representation');
  return text;
}

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
