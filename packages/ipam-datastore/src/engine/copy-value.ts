// Values cross the engine boundary by copy (row-engine.ts): validated writes, memory rows and the
// SQLite decode cache. structuredClone costs ~5× a plain recursive copy on a full /26 block
// (design/ipam-datastore.md "Copies and the decode cache"), so plain data is copied here and only
// anything else takes structuredClone, which keeps its semantics for those values.

const NOT_PLAIN: unique symbol = Symbol('not plain');

/** Far deeper than any stored object; deeper (or cyclic) values are left to structuredClone. */
const MAX_DEPTH = 256;

/** A `__proto__` key is data (the parser makes it an own property): define it, never set it. */
export function setOwn(target: Record<string, unknown>, key: string, item: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value: item, writable: true, enumerable: true, configurable: true });
  else target[key] = item;
}

/**
 * Objects found deeply frozen. Such an object can never change again (nor its prototype, nor any
 * object it holds), so the verdict stands for good and the next copy asks the set instead of
 * walking it again: the etcd decoded memo copies every committed block, whose attributes are the
 * same frozen objects write after write (design/ipam-core.md, "Allocation cost: the ninth round
 * (2026-12-02)").
 */
const knownDeeplyFrozen = new WeakSet<object>();

/** A frozen plain object whose members are primitives or such objects: it can never change. */
function deeplyFrozen(value: object, depth: number): boolean {
  if (knownDeeplyFrozen.has(value)) return true;
  if (depth > MAX_DEPTH || !Object.isFrozen(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  // Indexed, not `for…of`: in a plugin call's interpreter every iterator step is garbage (design/models.md, "Decoding without garbage").
  const items = Object.values(value) as unknown[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'function' || (typeof item === 'object' && item !== null && !deeplyFrozen(item, depth + 1))) return false;
  }
  knownDeeplyFrozen.add(value);
  return true;
}

function copyPlain(value: unknown, depth: number, shareFrozen: boolean): unknown {
  switch (typeof value) {
    case 'object':
      break;
    // structuredClone refuses these (DataCloneError): let it.
    case 'function':
    case 'symbol':
      return NOT_PLAIN;
    default:
      return value;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) return NOT_PLAIN;
  if (shareFrozen && deeplyFrozen(value, depth)) return value;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
    const items: unknown[] = value;
    const n = items.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = items[i];
      // A hole stays a hole, as structuredClone keeps it.
      if (item === undefined && !(i in items)) continue;
      const copy = copyPlain(item, depth + 1, shareFrozen);
      if (copy === NOT_PLAIN) return NOT_PLAIN;
      out[i] = copy;
    }
    return out;
  }
  // Map, Set, Date, boxed primitives, class instances, typed arrays: structuredClone decides.
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(source);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const copy = copyPlain(source[key], depth + 1, shareFrozen);
    if (copy === NOT_PLAIN) return NOT_PLAIN;
    setOwn(out, key, copy);
  }
  return out;
}

/**
 * A deep copy of `value`. Plain objects (a null prototype becomes Object.prototype), arrays (holes
 * kept) and primitives, bigint included, are copied directly; a value holding anything else (a
 * Map, Date or class instance, a function, a cycle) is copied whole by structuredClone, with its
 * result or its error. Unlike structuredClone, an object reached twice is copied twice and extra
 * non-index properties of an array are dropped: stored values are JSON data and have neither.
 * With `shareFrozen`, a deeply frozen plain object (the core's block attributes) is shared instead
 * of copied: nobody can change it (design/ipam-datastore.md, "Frozen attributes").
 */
export function copyValue<T>(value: T, shareFrozen = false): T {
  const copy = copyPlain(value, 0, shareFrozen);
  return copy === NOT_PLAIN ? structuredClone(value) : (copy as T);
}
