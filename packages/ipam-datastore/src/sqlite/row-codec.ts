import { parseWireJson, stringifyWireJson } from '@ipamkit/models';
import type { KindName } from '../engine/kinds.js';

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
