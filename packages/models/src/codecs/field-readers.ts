import { CodecError } from '../errors.js';

/** A decoded JSON object. */
export type JsonObject = Record<string, unknown>;

const UINT64_MAX = (1n << 64n) - 1n;

/** Every codec failure names the wire field (a JSON path such as `spec.allocations[3]`). */
export function codecFail(path: string, problem: string): never {
  throw new CodecError(`${path}: ${problem}`);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

export function asObject(value: unknown, path: string): JsonObject {
  if (!isJsonObject(value)) codecFail(path, 'expected an object');
  return value;
}

/** `null` and absent are the same for Go's `omitempty` pointers, maps and slices (design/calico-stored-formats.md#encoding-rules). */
export function optObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  // The field's path is text only for the error: a block's decode reads hundreds of fields.
  if (!isJsonObject(value)) codecFail(`${path}.${key}`, 'expected an object');
  return value;
}

export function optArray(obj: JsonObject, key: string, path: string): unknown[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) codecFail(`${path}.${key}`, 'expected an array');
  return value as unknown[];
}

export function reqString(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (typeof value !== 'string') codecFail(`${path}.${key}`, value === undefined ? 'is required' : 'expected a string');
  return value;
}

export function optString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') codecFail(`${path}.${key}`, 'expected a string');
  return value;
}

export function optBool(obj: JsonObject, key: string, path: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') codecFail(`${path}.${key}`, 'expected a boolean');
  return value;
}

/** Whether `value` is what `asCount` accepts, without a path to name (design/models.md, "Decoding without garbage"). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && !Object.is(value, -0);
}

/** A non-negative integer that fits a JS number exactly (ordinals, counts, sizes). */
export function asCount(value: unknown, path: string): number {
  if (typeof value === 'bigint') codecFail(path, 'integer is too large');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || Object.is(value, -0)) {
    codecFail(path, 'expected a non-negative integer');
  }
  return value;
}

export function optCount(obj: JsonObject, key: string, path: string): number | undefined {
  const value = obj[key];
  return value === undefined || value === null ? undefined : asCount(value, `${path}.${key}`);
}

/** A Go uint64 (sequence numbers), exact whether the parser produced a number or a bigint. */
export function asUint64(value: unknown, path: string): bigint {
  return uint64Of(value) ?? codecFail(path, 'expected an unsigned 64-bit integer');
}

/** What `asUint64` returns, or undefined where it would fail: the caller names the path only then. */
export function uint64Of(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n && value <= UINT64_MAX) return value;
  return undefined;
}

/** Checks a bigint from a model before it goes on the wire. */
export function checkUint64(value: unknown, path: string): bigint {
  if (!isUint64(value)) codecFail(path, 'expected a bigint in the uint64 range');
  return value;
}

/** Whether `checkUint64` accepts `value`, without a path to name. */
export function isUint64(value: unknown): value is bigint {
  return typeof value === 'bigint' && value >= 0n && value <= UINT64_MAX;
}

/**
 * A map of strings, copied key by key into a fresh object: no array of entries, and no error text
 * unless a value is not a string (a block's attributes hold one or two such maps each, and a
 * short-lived plugin call decodes whole blocks in V8's interpreter; design/models.md, "Decoding
 * without garbage").
 */
export function optStringMap(obj: JsonObject, key: string, path: string, index?: number): Record<string, string> | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  // With `index`, `path` names an array and `obj` is its element `index`.
  if (!isJsonObject(value)) codecFail(`${elementOf(path, index)}.${key}`, 'expected an object');
  const out: Record<string, string> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = value[k];
    if (typeof v !== 'string') codecFail(`${elementOf(path, index)}.${key}[${JSON.stringify(k)}]`, 'expected a string value');
    setOwn(out, k, v);
  }
  return out;
}

const elementOf = (path: string, index: number | undefined): string => (index === undefined ? path : `${path}[${index}]`);

/** `target[key] = value` as an own data property, `__proto__` included (as `Object.fromEntries` defines it). */
export function setOwn<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Checks that an object only uses keys from `known`; returns the others (for preservation). */
export function unknownEntries(obj: JsonObject, known: readonly string[]): JsonObject | undefined {
  const extra = Object.entries(obj).filter(([k]) => !known.includes(k));
  return extra.length === 0 ? undefined : Object.fromEntries(extra);
}

/** Go map keys are written sorted by byte order; a Map keeps that order through stringifyWireJson. */
export function sortedMap<V>(record: Readonly<Record<string, V>>): Map<string, V> {
  return new Map(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Sets `key` only when `value` is defined (Go `omitempty`; an optional model field stays absent). */
export function putDefined<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
