import { parseWireJson, stringifyWireJson } from '@ipamkit/models';
import type { KindName } from '../engine/kinds.js';
import { frozenAttributeText } from './decoded-copy.js';

const toBigInt = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as number));

/** JSON text for a stored value; bigint sequence numbers are written as exact JSON numbers. */
export function encodeValue(value: Record<string, unknown>): string {
  return stringifyWireJson(value);
}

/**
 * The inverse of encodeValue. The lossless parser yields bigint only beyond 2^53, so a block's
 * sequence numbers are widened back to bigint here, whatever their size.
 */
export function decodeValue(kind: KindName, text: string): Record<string, unknown> {
  const value = parseWireJson(text) as Record<string, unknown>;
  if (kind === 'block') {
    value['sequenceNumber'] = toBigInt(value['sequenceNumber']);
    const perAllocation = value['sequenceNumberForAllocation'] as Record<string, unknown>;
    value['sequenceNumberForAllocation'] = Object.fromEntries(Object.entries(perAllocation).map(([k, v]) => [k, toBigInt(v)]));
  }
  return value;
}

/**
 * encodeValue's exact text, written by the native JSON writer, for a value that decodedCopy or
 * decodedAsIs accepted: such a value holds only JSON-native data (strings, finite numbers,
 * booleans, null, plain objects, arrays without holes) plus, in a block, the bigint sequence
 * numbers, so the native writer renders it byte for byte as the lossless writer does, without the
 * lossless writer's classifying walk (the acceptance walk already was one). `undefined` when the
 * native writer refuses (a bigint elsewhere): use encodeValue then.
 */
export function encodeExact(kind: KindName, value: Record<string, unknown>): string | undefined {
  try {
    if (kind !== 'block') return JSON.stringify(value);
    let out = '{';
    for (const key of Object.keys(value)) {
      const item = value[key];
      let text: string;
      if (key === 'sequenceNumber' && typeof item === 'bigint') text = item.toString();
      else if (key === 'sequenceNumberForAllocation' && typeof item === 'object' && item !== null) text = bigintObjectText(item as Record<string, unknown>);
      else if (key === 'attributes' && Array.isArray(item)) text = attributesText(item);
      else text = JSON.stringify(item);
      out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + text;
    }
    return out + '}';
  } catch {
    return undefined;
  }
}

/** As JSON.stringify of the array, reusing the text of each frozen attribute a copy shared (decoded-copy.ts). */
function attributesText(items: unknown[]): string {
  // Attributes decoded from text or written by another client are frozen nowhere: one native call.
  if (!items.some((item) => frozenAttributeText(item) !== undefined)) return JSON.stringify(items);
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // In an array the native writer renders what it cannot write (undefined, a function) as null.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify is typed string but answers undefined for those.
    out += (i > 0 ? ',' : '') + (frozenAttributeText(item) ?? JSON.stringify(item) ?? 'null');
  }
  return out + ']';
}

/**
 * Whether `key` is an ordinal's key: one to ten digits, which JSON writes as they are between
 * quotes, so the per-ordinal map's keys skip `JSON.stringify` (design/ipam-core.md, "Allocation
 * cost: the ninth round (2026-12-02)"); any other key is written by it.
 */
function isDigits(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 10) return false;
  for (let i = 0; i < n; i++) {
    const code = key.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function bigintObjectText(map: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(map)) {
    const n = map[key];
    if (typeof n !== 'bigint') throw new TypeError('not a bigint');
    out += (isDigits(key) ? ',"' + key + '":' : ',' + JSON.stringify(key) + ':') + n.toString();
  }
  return out === '' ? '{}' : '{' + out.slice(1) + '}';
}
