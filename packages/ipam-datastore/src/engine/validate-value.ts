import { isRecord, ValidationError } from '@ipamkit/models';
import { copyValue } from './copy-value.js';
import type { KindName } from './kinds.js';

// Just enough checking that a malformed value is refused with a typed error before anything is
// written; the full model validation belongs to @ipamkit/models and the core.

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const isCidr = (v: unknown): boolean => typeof v === 'string' && /^[0-9a-fA-F.:]+\/\d{1,3}$/.test(v);

function fail(kind: KindName, why: string): never {
  throw new ValidationError(`invalid ${kind}: ${why}`);
}

function checkBlock(v: Record<string, unknown>): void {
  if (!isCidr(v['cidr'])) fail('block', 'cidr must be a CIDR');
  if (!Array.isArray(v['allocations']) || !Array.isArray(v['unallocated']) || !Array.isArray(v['attributes'])) {
    fail('block', 'allocations, unallocated and attributes must be arrays');
  }
  if (typeof v['sequenceNumber'] !== 'bigint') fail('block', 'sequenceNumber must be a bigint');
  const perAllocation = v['sequenceNumberForAllocation'];
  if (!isRecord(perAllocation) || !Object.values(perAllocation).every((n) => typeof n === 'bigint')) {
    fail('block', 'sequenceNumberForAllocation must map ordinals to bigints');
  }
}

function checkAffinity(v: Record<string, unknown>): void {
  if (!nonEmpty(v['host'])) fail('affinity', 'host must be a non-empty string');
  if (v['type'] !== 'host' && v['type'] !== 'virtual') fail('affinity', 'type must be "host" or "virtual"');
  if (!isCidr(v['cidr'])) fail('affinity', 'cidr must be a CIDR');
  if (typeof v['state'] !== 'string') fail('affinity', 'state must be a string');
}

function checkHandle(v: Record<string, unknown>): void {
  if (!nonEmpty(v['handleId'])) fail('handle', 'handleId must be a non-empty string');
  const block = v['block'];
  if (!isRecord(block) || !Object.values(block).every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) {
    fail('handle', 'block must map CIDRs to non-negative integers');
  }
}

function checkIpamConfig(v: Record<string, unknown>): void {
  if (typeof v['strictAffinity'] !== 'boolean' || typeof v['autoAllocateBlocks'] !== 'boolean') {
    fail('ipamConfig', 'strictAffinity and autoAllocateBlocks must be booleans');
  }
  if (!Number.isSafeInteger(v['maxBlocksPerHost']) || !Number.isSafeInteger(v['ipCooldownSeconds'])) {
    fail('ipamConfig', 'maxBlocksPerHost and ipCooldownSeconds must be integers');
  }
}

/** Checks `value` and returns a copy without the backend bookkeeping fields. */
export function storableValue(kind: KindName, value: unknown): Record<string, unknown> {
  return copyValue(checkedValue(kind, value));
}

/**
 * Checks `value` and returns it without the backend bookkeeping fields: a shallow copy that still
 * shares everything below the top with `value` (copy it before keeping it).
 */
export function checkedValue(kind: KindName, value: unknown): Record<string, unknown> {
  if (!isRecord(value)) fail(kind, 'expected an object');
  const { revision: _revision, uid: _uid, ...rest } = value;
  switch (kind) {
    case 'block':
      checkBlock(rest);
      break;
    case 'affinity':
      checkAffinity(rest);
      break;
    case 'handle':
      checkHandle(rest);
      break;
    case 'ipamConfig':
      checkIpamConfig(rest);
      break;
    default:
      if (!nonEmpty(rest['name'])) fail(kind, 'name must be a non-empty string');
  }
  return rest;
}
