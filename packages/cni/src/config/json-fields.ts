import { NetworkConfigError } from '../errors.js';

/** Typed readers for the decoded network config: a wrong type is a clear code-7 error, never a crash. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wrongType(path: string, expected: string): NetworkConfigError {
  return new NetworkConfigError(`failed to load netconf: ${path} must be ${expected}`);
}

export function optionalString(obj: JsonObject, key: string, path = key): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(path, 'a string');
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, path = key): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw wrongType(path, 'a boolean');
  return value;
}

export function optionalNumber(obj: JsonObject, key: string, path = key): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(path, 'a number');
  return value;
}

export function stringList(obj: JsonObject, key: string, path = key): string[] {
  const value = obj[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) throw wrongType(path, 'a list of strings');
  return value;
}

export function optionalObject(obj: JsonObject, key: string, path = key): JsonObject {
  const value = obj[key];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw wrongType(path, 'an object');
  return value;
}
