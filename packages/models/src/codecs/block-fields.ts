import type { AllocationAttribute, AllocationBlock, BlockOwner } from '../resources/allocation-block.js';
import {
  type JsonObject,
  asCount,
  asObject,
  asUint64,
  checkUint64,
  codecFail,
  optArray,
  optBool,
  optObject,
  optString,
  optStringMap,
  putDefined,
  reqString,
  sortedMap,
} from './field-readers.js';
import { normalizeTimestamp } from './timestamp.js';
import { blockSizeOf, wireCidr } from './wire-cidr.js';

/**
 * KDD (v1 and v3) and etcd store the same block fields under mostly the same names (design/calico-stored-formats.md#blocks, design/calico-stored-formats.md#etcdv3-layout). The
 * differences: the claim-time name, `affinity` written as null (etcd) or omitted (KDD), the
 * required-but-ignored `strictAffinity` (KDD only), and Go map ordering (etcd values are written
 * byte-compatible, so maps become sorted `Map`s there).
 */
export type BlockForm = 'kdd' | 'etcd';

const CLAIM_TIME: Readonly<Record<BlockForm, string>> = { kdd: 'affinityClaimTime', etcd: 'affinity_claim_time' };

export function parseBlockOwner(text: string, path: string): BlockOwner {
  const colon = text.indexOf(':');
  const type = text.slice(0, colon);
  const host = text.slice(colon + 1);
  if (colon < 0 || (type !== 'host' && type !== 'virtual') || host === '') {
    return codecFail(path, `${JSON.stringify(text)} is not "host:<name>" or "virtual:<name>"`);
  }
  return { type, host };
}

export function formatBlockOwner(owner: BlockOwner): string {
  return `${owner.type}:${owner.host}`;
}

function decodeAttribute(value: unknown, path: string): AllocationAttribute {
  const obj = asObject(value, path);
  const attr: AllocationAttribute = {};
  const handle = optString(obj, 'handle_id', path);
  // Old host-local migrations left "\r…" after the ID (design/calico-stored-formats.md#allocation-attributes): cut it off.
  if (handle !== undefined && handle !== '') attr.handleId = handle.split('\r')[0] ?? '';
  const active = optStringMap(obj, 'secondary', path);
  if (active !== undefined && Object.keys(active).length > 0) attr.activeOwnerAttrs = active;
  const alternate = optStringMap(obj, 'alternateOwnerAttrs', path);
  if (alternate !== undefined && Object.keys(alternate).length > 0) attr.alternateOwnerAttrs = alternate;
  const releasedAt = optString(obj, 'releasedAt', path);
  if (releasedAt !== undefined) attr.releasedAt = normalizeTimestamp(releasedAt, `${path}.releasedAt`);
  return attr;
}

function encodeAttribute(attr: AllocationAttribute, form: BlockForm, path: string): JsonObject {
  const map = (m: Record<string, string> | undefined) =>
    m === undefined || Object.keys(m).length === 0 ? undefined : form === 'etcd' ? sortedMap(m) : { ...m };
  const out: JsonObject = {};
  putDefined(out, 'handle_id', attr.handleId === '' ? undefined : attr.handleId);
  putDefined(out, 'secondary', map(attr.activeOwnerAttrs));
  putDefined(out, 'alternateOwnerAttrs', map(attr.alternateOwnerAttrs));
  if (attr.releasedAt !== undefined) out.releasedAt = normalizeTimestamp(attr.releasedAt, `${path}.releasedAt`);
  return out;
}

/** Reads the block fields of a KDD `spec` or an etcd value; `path` prefixes error field names. */
export function decodeBlockFields(value: unknown, form: BlockForm, path: string): AllocationBlock {
  const obj = asObject(value, path);
  const cidr = wireCidr(reqString(obj, 'cidr', path), `${path}.cidr`);
  const size = blockSizeOf(cidr, `${path}.cidr`);
  const attributes = (optArray(obj, 'attributes', path) ?? []).map((a, i) => decodeAttribute(a, `${path}.attributes[${i}]`));
  const rawAllocations = optArray(obj, 'allocations', path) ?? [];
  // Shorter than the block is accepted and kept as stored (Calico's own test objects hold /26
  // blocks with 0 or 1 entries; the core never allocates from them). Longer is not a block.
  if (rawAllocations.length > size) {
    codecFail(`${path}.allocations`, `has ${rawAllocations.length} entries but block ${cidr} has ${size} addresses`);
  }
  const allocations = rawAllocations.map((a, i) => {
    if (a === null) return null;
    const index = asCount(a, `${path}.allocations[${i}]`);
    if (index >= attributes.length) codecFail(`${path}.allocations[${i}]`, `attribute index ${index} is out of range`);
    return index;
  });
  const unallocated = (optArray(obj, 'unallocated', path) ?? []).map((o, i) => {
    const ordinal = asCount(o, `${path}.unallocated[${i}]`);
    if (ordinal >= size) codecFail(`${path}.unallocated[${i}]`, `ordinal ${ordinal} is outside the block`);
    return ordinal;
  });
  const seqMap = optObject(obj, 'sequenceNumberForAllocation', path) ?? {};
  const sequenceNumberForAllocation = Object.fromEntries(
    Object.entries(seqMap).map(([k, v]): [string, bigint] => {
      const field = `${path}.sequenceNumberForAllocation[${JSON.stringify(k)}]`;
      if (!/^(0|[1-9][0-9]*)$/.test(k)) codecFail(field, 'key is not a decimal ordinal');
      return [k, asUint64(v, field)];
    }),
  );
  const block: AllocationBlock = {
    cidr,
    allocations,
    unallocated,
    attributes,
    sequenceNumber: obj.sequenceNumber === undefined || obj.sequenceNumber === null ? 0n : asUint64(obj.sequenceNumber, `${path}.sequenceNumber`),
    sequenceNumberForAllocation,
    deleted: optBool(obj, 'deleted', path) ?? false,
  };
  const affinity = optString(obj, 'affinity', path);
  if (affinity !== undefined && affinity !== '') block.affinity = parseBlockOwner(affinity, `${path}.affinity`);
  const claimTime = optString(obj, CLAIM_TIME[form], path);
  if (claimTime !== undefined) block.affinityClaimTime = normalizeTimestamp(claimTime, `${path}.${CLAIM_TIME[form]}`);
  return block;
}

/** Writes the block fields in Calico's order; the legacy etcd `hostAffinity` is never written. */
export function encodeBlockFields(block: AllocationBlock, form: BlockForm, path: string): JsonObject {
  const cidr = wireCidr(block.cidr, `${path}.cidr`);
  const out: JsonObject = { cidr };
  const affinity = block.affinity === undefined ? undefined : formatBlockOwner(block.affinity);
  if (form === 'etcd') out.affinity = affinity ?? null;
  else putDefined(out, 'affinity', affinity);
  if (block.affinityClaimTime !== undefined) {
    out[CLAIM_TIME[form]] = normalizeTimestamp(block.affinityClaimTime, `${path}.affinityClaimTime`);
  }
  out.allocations = [...block.allocations];
  out.unallocated = [...block.unallocated];
  out.attributes = block.attributes.map((a, i) => encodeAttribute(a, form, `${path}.attributes[${i}]`));
  out.sequenceNumber = checkUint64(block.sequenceNumber, `${path}.sequenceNumber`);
  const seqs = Object.fromEntries(
    Object.entries(block.sequenceNumberForAllocation).map(([k, v]): [string, bigint] => [
      k,
      checkUint64(v, `${path}.sequenceNumberForAllocation[${JSON.stringify(k)}]`),
    ]),
  );
  out.sequenceNumberForAllocation = form === 'etcd' ? sortedMap(seqs) : seqs;
  out.deleted = block.deleted;
  if (form === 'kdd') out.strictAffinity = false;
  return out;
}
