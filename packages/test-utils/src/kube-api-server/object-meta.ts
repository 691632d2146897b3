import { isoUtc } from '@ipamkit/models';
import { isJsonObject, type JsonValue } from './lossless-json.js';
import type { KubeObject } from './object-store.js';
import type { FieldError } from './schema-validator.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

export type NameRule = 'subdomain' | 'label' | 'label1035';

/** A metadata field as text: strings as they are, anything else (absent included) as ''. */
export function textOf(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

export function metadataOf(obj: KubeObject): Record<string, JsonValue> {
  const meta = obj['metadata'];
  return isJsonObject(meta) ? meta : {};
}

export function stringMap(v: JsonValue | undefined): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

export function labelsOf(obj: KubeObject): Record<string, string> {
  return stringMap(metadataOf(obj)['labels']);
}

export function nameErrors(name: string, rule: NameRule): FieldError[] {
  const [re, max, what] =
    rule === 'label'
      ? [DNS_LABEL, 63, 'a lowercase RFC 1123 label']
      : rule === 'label1035'
        ? [DNS_1035_LABEL, 63, 'a DNS-1035 label']
        : [DNS_SUBDOMAIN, 253, 'a lowercase RFC 1123 subdomain'];
  if (name.length <= max && re.test(name)) return [];
  return [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${name}": must be ${what} of at most ${max} characters` }];
}

function qualifiedNameErrors(key: string, field: string): FieldError[] {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const ok = name.length <= 63 && QUALIFIED_NAME.test(name) && (prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)));
  return ok ? [] : [{ reason: 'FieldValueInvalid', field, message: `Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.'` }];
}

/** Label keys and values as the API server checks them; annotation keys must be qualified names. */
export function metadataErrors(meta: Record<string, JsonValue>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(stringMap(meta['labels']))) {
    errors.push(...qualifiedNameErrors(key, 'metadata.labels'));
    if (value.length > 63 || (value !== '' && !QUALIFIED_NAME.test(value))) {
      errors.push({ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "${value}": a valid label must be 63 characters or less` });
    }
  }
  for (const key of Object.keys(stringMap(meta['annotations']))) errors.push(...qualifiedNameErrors(key, 'metadata.annotations'));
  return errors;
}

export function nowTimestamp(): string {
  return isoUtc(new Date(Math.floor(Date.now() / 1000) * 1000)).replace('.000Z', 'Z');
}
