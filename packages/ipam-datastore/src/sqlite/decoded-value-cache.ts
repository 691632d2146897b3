import type { KindName } from '../engine/kinds.js';
import { decodeValue } from './row-codec.js';

/** Copies a decoded value (plain objects, arrays and primitives, as the JSON codec makes them). */
export function copyDecoded(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    const out: unknown[] = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) out[i] = copyDecoded(items[i]);
    return out;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = copyDecoded(source[key]);
    // A `__proto__` key is data (the parser makes it an own property): define it, do not set it.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/**
 * Memoises `decodeValue` per row key, keyed by the row's exact stored text: a hit needs the text
 * read now to equal the text decoded before, so it can never return a stale value (whatever wrote
 * the row, in whatever process) and needs no invalidation. Callers get a fresh copy each time,
 * which is an order of magnitude cheaper than parsing the lossless JSON again. Rows that change on
 * every write (blocks) miss; pools, nodes, affinities and handles read again unchanged hit.
 */
export class DecodedValueCache {
  private readonly entries = new Map<string, { readonly text: string; readonly value: Record<string, unknown> }>();

  constructor(private readonly capacity: number) {}

  decode(kind: KindName, key: string, text: string): Record<string, unknown> {
    const id = `${kind}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit?.text === text) return copyDecoded(hit.value) as Record<string, unknown>;
    const value = decodeValue(kind, text);
    this.entries.delete(id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(id, { text, value: copyDecoded(value) as Record<string, unknown> });
    return value;
  }
}
