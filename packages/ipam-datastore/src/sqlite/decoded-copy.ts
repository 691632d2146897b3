import { setOwn } from '../engine/copy-value.js';
import type { KindName } from '../engine/kinds.js';

// What reading a row back would decode, built by copying the value just written instead of parsing
// its text (a full /26 block: ~27 µs against ~140 µs). Only values whose JSON round trip is exact
// qualify; anything the codec would change answers `undefined` and the row is decoded when read.

const NOT_EXACT: unique symbol = Symbol('not exact');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Well inside the parser's nesting limit. */
const MAX_DEPTH = 64;

/** `value` copied (`copy`) or itself, when its JSON round trip is exact; NOT_EXACT otherwise. */
function exactCopy(value: unknown, depth: number, copy: boolean): unknown {
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
    const out = copy ? new Array<unknown>(n) : items;
    for (let i = 0; i < n; i++) {
      // A hole has no JSON representation at all.
      if (!(i in items)) return NOT_EXACT;
      const item = exactCopy(items[i], depth + 1, copy);
      if (item === NOT_EXACT) return NOT_EXACT;
      if (copy) out[i] = item;
    }
    return out;
  }
  const obj = plainObject(value);
  // Decoding builds ordinary objects: one without a prototype only matches once copied.
  if (obj === undefined || (!copy && Object.getPrototypeOf(obj) === null)) return NOT_EXACT;
  const out: Record<string, unknown> = copy ? {} : obj;
  for (const key of Object.keys(obj)) {
    const item = exactCopy(obj[key], depth + 1, copy);
    if (item === NOT_EXACT) return NOT_EXACT;
    if (copy) setOwn(out, key, item);
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
  return decodedForm(kind, value, true);
}

/**
 * `value` itself when it already equals `decodeValue(kind, encodeValue(value))`, else undefined:
 * for a value the engine owns outright (a transaction's write, copied when it was buffered and
 * referenced by nothing else), which can then be memoised without another copy.
 */
export function decodedAsIs(kind: KindName, value: Record<string, unknown>): Record<string, unknown> | undefined {
  return decodedForm(kind, value, false);
}

function decodedForm(kind: KindName, value: Record<string, unknown>, copy: boolean): Record<string, unknown> | undefined {
  if (kind !== 'block') {
    const out = exactCopy(value, 0, copy);
    return out === NOT_EXACT || plainObject(out) === undefined ? undefined : (out as Record<string, unknown>);
  }
  const top = plainObject(value);
  if (top === undefined || typeof top['toJSON'] === 'function' || (!copy && Object.getPrototypeOf(top) === null)) return undefined;
  const out: Record<string, unknown> = copy ? {} : top;
  let widened = 0;
  for (const key of Object.keys(top)) {
    const item = top[key];
    let form: unknown;
    if (key === 'sequenceNumber') {
      form = typeof item === 'bigint' ? item : NOT_EXACT;
      widened++;
    } else if (key === 'sequenceNumberForAllocation') {
      form = bigintMap(item, copy);
      widened++;
    } else {
      form = key === 'attributes' && copy ? attributesCopy(item) : NOT_EXACT;
      if (form === NOT_EXACT) form = exactCopy(item, 1, copy);
    }
    if (form === NOT_EXACT) return undefined;
    if (copy) setOwn(out, key, form);
  }
  // decodeValue fails on a block text without both: leave that to it.
  return widened === 2 ? out : undefined;
}

/**
 * Attributes that are frozen, with their owner maps, and shaped as the core writes them, with the
 * JSON text of each. Such an attribute can never change (the core freezes every attribute it makes),
 * so a copy shares it instead of copying it and `encodeExact` reuses its text (design/ipam-core.md,
 * "Allocation cost: the sixth round (2026-12-02)"). Nothing here freezes anything.
 */
const frozenAttributes = new WeakMap<object, string>();

/** The JSON text of a frozen attribute `attributesCopy` shared, or undefined for any other value. */
export function frozenAttributeText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? frozenAttributes.get(value) : undefined;
}

/**
 * A block's attributes copied by their known shape (a handle, owner maps of strings, a release
 * time) at about a tenth of the generic walk's cost (design/ipam-datastore.md, "Values stored
 * once"); NOT_EXACT for anything else, which the generic walk then decides. A frozen attribute
 * (and owner maps) of that shape is shared, and its text remembered, instead of copied.
 */
function attributesCopy(value: unknown): unknown {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return NOT_EXACT;
  const items: unknown[] = value;
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (frozenAttributeText(item) !== undefined) {
      out[i] = item;
      continue;
    }
    const attribute = plainObject(item);
    if (attribute === undefined || typeof attribute['toJSON'] === 'function') return NOT_EXACT;
    let shared = Object.isFrozen(attribute) && Object.getPrototypeOf(attribute) === Object.prototype;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(attribute)) {
      const field = attribute[key];
      if (key === 'activeOwnerAttrs' || key === 'alternateOwnerAttrs') {
        const map = stringMapCopy(field);
        if (map === undefined) return NOT_EXACT;
        shared &&= Object.isFrozen(field) && Object.getPrototypeOf(field) === Object.prototype;
        copy[key] = map;
      } else if ((key === 'handleId' || key === 'releasedAt') && typeof field === 'string') copy[key] = field;
      else return NOT_EXACT;
    }
    if (shared) frozenAttributes.set(attribute, JSON.stringify(attribute));
    out[i] = shared ? attribute : copy;
  }
  return out;
}

/** A plain object of strings, copied (a spread defines `__proto__` as an own key, as decoding does). */
function stringMapCopy(value: unknown): Record<string, unknown> | undefined {
  const map = plainObject(value);
  if (map === undefined || typeof map['toJSON'] === 'function') return undefined;
  const copy: Record<string, unknown> = { ...map };
  for (const key of Object.keys(copy)) if (typeof copy[key] !== 'string') return undefined;
  return copy;
}

/** An object of bigints (decodeValue widens whatever number comes back), copied or as is; or NOT_EXACT. */
function bigintMap(value: unknown, copy: boolean): unknown {
  const source = plainObject(value);
  if (source === undefined || typeof source['toJSON'] === 'function' || (!copy && Object.getPrototypeOf(source) === null)) return NOT_EXACT;
  const out: Record<string, unknown> = copy ? {} : source;
  for (const key of Object.keys(source)) {
    const n = source[key];
    if (typeof n !== 'bigint') return NOT_EXACT;
    if (copy) setOwn(out, key, n);
  }
  return out;
}
