import { setOwn } from '../engine/copy-value.js';
import type { KindName } from '../engine/kinds.js';

// What reading a row back would decode, built by copying the value just written instead of parsing
// its text (a full /26 block: ~27 µs against ~140 µs). Only values whose JSON round trip is exact
// qualify; anything the codec would change answers `undefined` and the row is decoded when read.

const NOT_EXACT: unique symbol = Symbol('not exact');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Well inside the parser's nesting limit. */
const MAX_DEPTH = 64;

function exactCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // Written as an integer literal beyond ±(2^53 − 1), such a number would come back a bigint;
      // -0 comes back 0; non-finite numbers are refused by the writer.
      return Number.isFinite(value) && !Object.is(value, -0) && (Number.isSafeInteger(value) || !Number.isInteger(value)) ? value : NOT_EXACT;
    case 'bigint':
      // The parser returns a bigint only beyond ±(2^53 − 1).
      return value > MAX_SAFE || value < -MAX_SAFE ? value : NOT_EXACT;
    case 'object':
      break;
    default:
      // undefined, functions and symbols are dropped (objects) or become null (arrays).
      return NOT_EXACT;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_EXACT;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_EXACT;
    const items: unknown[] = value;
    const n = items.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      // A hole has no JSON representation at all.
      if (!(i in items)) return NOT_EXACT;
      const copy = exactCopy(items[i], depth + 1);
      if (copy === NOT_EXACT) return NOT_EXACT;
      out[i] = copy;
    }
    return out;
  }
  const obj = plainObject(value);
  if (obj === undefined) return NOT_EXACT;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const copy = exactCopy(obj[key], depth + 1);
    if (copy === NOT_EXACT) return NOT_EXACT;
    setOwn(out, key, copy);
  }
  return out;
}

function plainObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? (value as Record<string, unknown>) : undefined;
}

/**
 * A private copy equal to `decodeValue(kind, encodeValue(value))` (same keys in the same order,
 * same types), or `undefined` when the round trip is not known to be exact. A block's sequence
 * numbers are widened to bigint by decodeValue, so there any bigint round-trips.
 */
export function decodedCopy(kind: KindName, value: Record<string, unknown>): Record<string, unknown> | undefined {
  if (kind !== 'block') {
    const copy = exactCopy(value, 0);
    return copy === NOT_EXACT || plainObject(copy) === undefined ? undefined : (copy as Record<string, unknown>);
  }
  const top = plainObject(value);
  if (top === undefined || typeof top['toJSON'] === 'function') return undefined;
  const out: Record<string, unknown> = {};
  let widened = 0;
  for (const key of Object.keys(top)) {
    const item = top[key];
    let copy: unknown;
    if (key === 'sequenceNumber') {
      copy = typeof item === 'bigint' ? item : NOT_EXACT;
      widened++;
    } else if (key === 'sequenceNumberForAllocation') {
      copy = bigintMap(item);
      widened++;
    } else {
      copy = exactCopy(item, 1);
    }
    if (copy === NOT_EXACT) return undefined;
    setOwn(out, key, copy);
  }
  // decodeValue fails on a block text without both: leave that to it.
  return widened === 2 ? out : undefined;
}

/** A copy of an object of bigints (decodeValue widens whatever number comes back), or NOT_EXACT. */
function bigintMap(value: unknown): unknown {
  const source = plainObject(value);
  if (source === undefined || typeof source['toJSON'] === 'function') return NOT_EXACT;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const n = source[key];
    if (typeof n !== 'bigint') return NOT_EXACT;
    setOwn(out, key, n);
  }
  return out;
}
