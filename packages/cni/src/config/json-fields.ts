import { isRecord } from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';
import { INPUT_LIMITS, requireMaxLength } from './input-limits.js';

/** Typed readers for the decoded network config: a wrong type is a clear code-7 error, never a crash. */
export type JsonObject = Record<string, unknown>;

function wrongType(path: string, expected: string): NetworkConfigError {
  return new NetworkConfigError(`failed to load netconf: ${path} must be ${expected}`);
}

/** How long a string field may be (design/cni.md, "Input limits"); a secret is never quoted. */
export interface StringLimit {
  max?: number;
  secret?: boolean;
}

function bounded(value: string, path: string, limit: StringLimit): string {
  const options = limit.secret === true ? { secret: true } : {};
  return requireMaxLength(value, limit.max ?? INPUT_LIMITS.netconfString, `failed to load netconf: ${path}`, options);
}

export function optionalString(obj: JsonObject, key: string, path = key, limit: StringLimit = {}): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(path, 'a string');
  return bounded(value, path, limit);
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

/** The most entries a list of the network config may have. */
const MAX_LIST_ENTRIES = 1024;

export function stringList(obj: JsonObject, key: string, path = key, limit: StringLimit & { entries?: number } = {}): string[] {
  const value = obj[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) throw wrongType(path, 'a list of strings');
  const entries = limit.entries ?? MAX_LIST_ENTRIES;
  if (value.length > entries) throw new NetworkConfigError(`failed to load netconf: ${path} has more than ${entries} entries`);
  return value.map((entry, i) => bounded(entry, `${path}[${i}]`, { max: INPUT_LIMITS.listEntry, ...limit }));
}

export function optionalObject(obj: JsonObject, key: string, path = key): JsonObject {
  const value = obj[key];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw wrongType(path, 'an object');
  return value;
}
