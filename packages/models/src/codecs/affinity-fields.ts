import type { AffinityType } from '../resources/allocation-block.js';
import type { AffinityState } from '../resources/block-affinity.js';
import { codecFail } from './field-readers.js';

const STATES: readonly AffinityState[] = ['', 'pending', 'confirmed', 'pendingDeletion'];

export function parseAffinityState(value: unknown, path: string): AffinityState {
  if (value === undefined || value === null) return '';
  const state = STATES.find((s) => s === value);
  if (state === undefined) return codecFail(path, `${JSON.stringify(value)} is not an affinity state`);
  return state;
}

/** Missing or empty type is a host affinity (legacy rows, design/calico-stored-formats.md#affinities). */
export function parseAffinityType(value: unknown, path: string): AffinityType {
  if (value === undefined || value === null || value === '' || value === 'host') return 'host';
  if (value === 'virtual') return 'virtual';
  return codecFail(path, `${JSON.stringify(value)} is not an affinity type`);
}

const TRUE_WORDS = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE_WORDS = ['0', 'f', 'F', 'FALSE', 'false', 'False', ''];

/**
 * v1 BlockAffinity `deleted` is a string; the IPAM-facing Calico client accepts whatever Go's
 * strconv.ParseBool accepts and reads "" as false (design/calico-stored-formats.md#affinities). A JSON boolean is accepted as well.
 */
export function parseLenientBool(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && TRUE_WORDS.includes(value)) return true;
  if (typeof value === 'string' && FALSE_WORDS.includes(value)) return false;
  return codecFail(path, `${JSON.stringify(value)} is not a boolean`);
}
