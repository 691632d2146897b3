import net from 'node:net';
import { isJsonObject, type JsonObject, type JsonValue } from './lossless-json.js';

/** The subset of a CRD's structural `openAPIV3Schema` the test server enforces. */
export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  enum?: JsonValue[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  default?: JsonValue;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

/** One failed check, as a `Status` cause (`details.causes[]`). */
export interface FieldError {
  readonly reason: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported' | 'FieldValueTooLong' | 'FieldValueTypeInvalid';
  readonly field: string;
  readonly message: string;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

function show(v: JsonValue): string {
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

function typeOf(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(expected: string, v: JsonValue): boolean {
  const actual = typeOf(v);
  return actual === expected || (expected === 'number' && actual === 'integer');
}

function formatOk(format: string, v: JsonValue): string | undefined {
  if (typeof v === 'string') {
    switch (format) {
      case 'ipv4':
        return net.isIPv4(v) ? undefined : 'must be of format ipv4';
      case 'ipv6':
        return net.isIPv6(v) ? undefined : 'must be of format ipv6';
      case 'cidr': {
        const [ip, len, extra] = v.split('/');
        const bits = ip !== undefined && net.isIPv4(ip) ? 32 : ip !== undefined && net.isIPv6(ip) ? 128 : 0;
        const ok = bits > 0 && extra === undefined && len !== undefined && /^\d{1,3}$/.test(len) && Number(len) <= bits;
        return ok ? undefined : 'must be of format cidr';
      }
      case 'date-time':
        return /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) ? undefined : 'must be of format date-time';
      default:
        return undefined;
    }
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (typeof v === 'number' && !Number.isInteger(v)) return undefined;
    const big = BigInt(v);
    if (format === 'int64' && (big < INT64_MIN || big > INT64_MAX)) return 'must be of format int64';
    if (format === 'int32' && (big < INT32_MIN || big > INT32_MAX)) return 'must be of format int32';
  }
  return undefined;
}

function compare(v: number | bigint, bound: number): number {
  if (typeof v === 'bigint') return v < BigInt(Math.trunc(bound)) ? -1 : v > BigInt(Math.trunc(bound)) ? 1 : 0;
  return v < bound ? -1 : v > bound ? 1 : 0;
}

/**
 * Validates `value` against `schema` and prunes it as a structural schema does: unknown object
 * fields are dropped unless `x-kubernetes-preserve-unknown-fields`, nulls in non-nullable fields
 * are dropped, then defaults apply. Returns the pruned value and every error found.
 */
export function validateAgainstSchema(value: JsonValue, schema: OpenApiSchema, path = ''): { value: JsonValue; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const pruned = walk(value, schema, path, errors);
  return { value: pruned, errors };
}

function walk(value: JsonValue, schema: OpenApiSchema, path: string, errors: FieldError[]): JsonValue {
  const field = path === '' ? '<root>' : path;
  const invalid = (message: string, reason: FieldError['reason'] = 'FieldValueInvalid'): void => {
    errors.push({ reason, field, message: `Invalid value: ${show(value)}: ${field} in body ${message}` });
  };
  if (value === null) {
    if (schema.nullable !== true) invalid(`must be of type ${schema.type ?? 'object'}: "null"`, 'FieldValueTypeInvalid');
    return value;
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeof value !== 'string' && typeOf(value) !== 'integer') invalid('must be an integer or a string', 'FieldValueTypeInvalid');
    return value;
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    invalid(`must be of type ${schema.type}: "${typeOf(value)}"`, 'FieldValueTypeInvalid');
    return value;
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => show(e) === show(value))) {
    errors.push({
      reason: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${show(value)}: supported values: ${schema.enum.map(show).join(', ')}`,
    });
  }
  if (schema.format !== undefined) {
    const problem = formatOk(schema.format, value);
    if (problem !== undefined) invalid(problem);
  }
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && Array.from(value).length > schema.maxLength) {
      errors.push({ reason: 'FieldValueTooLong', field, message: `Too long: may not be longer than ${schema.maxLength}` });
    }
    if (schema.minLength !== undefined && Array.from(value).length < schema.minLength) invalid(`should be at least ${schema.minLength} chars long`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) invalid(`should match '${schema.pattern}'`);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (schema.minimum !== undefined) {
      const c = compare(value, schema.minimum);
      if (c < 0 || (c === 0 && schema.exclusiveMinimum === true)) invalid(`should be greater than or equal to ${schema.minimum}`);
    }
    if (schema.maximum !== undefined) {
      const c = compare(value, schema.maximum);
      if (c > 0 || (c === 0 && schema.exclusiveMaximum === true)) invalid(`should be less than or equal to ${schema.maximum}`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      errors.push({ reason: 'FieldValueTooLong', field, message: `Too many: ${value.length}: must have at most ${schema.maxItems} items` });
    }
    if (schema.minItems !== undefined && value.length < schema.minItems) invalid(`should have at least ${schema.minItems} items`);
    const items = schema.items;
    return items === undefined ? value : value.map((item, i) => walk(item, items, `${path}[${i}]`, errors));
  }
  if (isJsonObject(value)) return walkObject(value, schema, path, errors);
  return value;
}

function walkObject(value: JsonObject, schema: OpenApiSchema, path: string, errors: FieldError[]): JsonValue {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const props = schema.properties;
  const extra = schema.additionalProperties;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    const childSchema = props?.[key] ?? (typeof extra === 'object' ? extra : undefined);
    if (childSchema === undefined) {
      // Unknown field: kept only where the schema says so (or for a free-form map).
      if (preserve || extra === true || (props === undefined && schema.type === undefined)) out[key] = child;
      continue;
    }
    if (child === null && childSchema.nullable !== true) continue;
    out[key] = walk(child, childSchema, childPath, errors);
  }
  for (const [key, childSchema] of Object.entries(props ?? {})) {
    if (!(key in out) && childSchema.default !== undefined) out[key] = structuredClone(childSchema.default);
  }
  for (const key of schema.required ?? []) {
    if (!(key in out)) {
      const field = path === '' ? key : `${path}.${key}`;
      errors.push({ reason: 'FieldValueRequired', field, message: 'Required value' });
    }
  }
  return out;
}
