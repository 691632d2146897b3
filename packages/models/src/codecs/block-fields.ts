import type { AllocationAttribute, AllocationBlock, BlockOwner } from '../resources/allocation-block.js';
import {
  type JsonObject,
  asCount,
  asObject,
  asUint64,
  checkUint64,
  codecFail,
  isCount,
  isJsonObject,
  isUint64,
  setOwn,
  uint64Of,
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

/** `<base>.<field>[<index>]`, built only when a decode fails (design/models.md, "Decoding without garbage"). */
const elementPath = (base: string, field: string, index: number | string): string => `${base}.${field}[${typeof index === 'string' ? JSON.stringify(index) : index}]`;

/**
 * Attribute `index` of the array at `attributesPath`: its own path is text only when one of its
 * fields fails.
 */
function decodeAttribute(value: unknown, attributesPath: string, index: number): AllocationAttribute {
  if (!isJsonObject(value)) codecFail(`${attributesPath}[${index}]`, 'expected an object');
  const attr: AllocationAttribute = {};
  const handle = value.handle_id;
  if (handle !== undefined && handle !== null) {
    if (typeof handle !== 'string') codecFail(`${attributesPath}[${index}].handle_id`, 'expected a string');
    // Old host-local migrations left "\r…" after the ID (design/calico-stored-formats.md#allocation-attributes): cut it off.
    if (handle !== '') attr.handleId = cutAtCarriageReturn(handle);
  }
  const active = optStringMap(value, 'secondary', attributesPath, index);
  if (active !== undefined && hasOwnKey(active)) attr.activeOwnerAttrs = active;
  const alternate = optStringMap(value, 'alternateOwnerAttrs', attributesPath, index);
  if (alternate !== undefined && hasOwnKey(alternate)) attr.alternateOwnerAttrs = alternate;
  if (value.releasedAt !== undefined && value.releasedAt !== null) {
    const path = `${attributesPath}[${index}]`;
    const releasedAt = optString(value, 'releasedAt', path);
    if (releasedAt !== undefined) attr.releasedAt = normalizeTimestamp(releasedAt, `${path}.releasedAt`);
  }
  return attr;
}

const cutAtCarriageReturn = (text: string): string => {
  const at = text.indexOf('\r');
  return at < 0 ? text : text.slice(0, at);
};

/** Whether an object has an own enumerable key, without listing them. */
function hasOwnKey(obj: Record<string, string>): boolean {
  for (const key in obj) if (Object.prototype.hasOwnProperty.call(obj, key)) return true;
  return false;
}

/** A sequence-number key: a decimal ordinal without leading zeros ("0", "17"). */
function isDecimalOrdinal(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  const first = key.charCodeAt(0);
  if (first === 0x30) return n === 1;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function encodeAttribute(attr: AllocationAttribute, form: BlockForm, blockPath: string, index: number): JsonObject {
  const map = (m: Record<string, string> | undefined) =>
    m === undefined || Object.keys(m).length === 0 ? undefined : form === 'etcd' ? sortedMap(m) : { ...m };
  const out: JsonObject = {};
  putDefined(out, 'handle_id', attr.handleId === '' ? undefined : attr.handleId);
  putDefined(out, 'secondary', map(attr.activeOwnerAttrs));
  putDefined(out, 'alternateOwnerAttrs', map(attr.alternateOwnerAttrs));
  if (attr.releasedAt !== undefined) out.releasedAt = normalizeTimestamp(attr.releasedAt, `${elementPath(blockPath, 'attributes', index)}.releasedAt`);
  return out;
}

/** Reads the block fields of a KDD `spec` or an etcd value; `path` prefixes error field names. */
export function decodeBlockFields(value: unknown, form: BlockForm, path: string): AllocationBlock {
  const obj = asObject(value, path);
  const cidr = wireCidr(reqString(obj, 'cidr', path), `${path}.cidr`);
  const size = blockSizeOf(cidr, `${path}.cidr`);
  const rawAttributes = optArray(obj, 'attributes', path) ?? [];
  const attributesPath = `${path}.attributes`;
  const attributes: AllocationAttribute[] = new Array<AllocationAttribute>(rawAttributes.length);
  for (let i = 0; i < rawAttributes.length; i++) attributes[i] = decodeAttribute(rawAttributes[i], attributesPath, i);
  const rawAllocations = optArray(obj, 'allocations', path) ?? [];
  // Shorter than the block is accepted and kept as stored (Calico's own test objects hold /26
  // blocks with 0 or 1 entries; the core never allocates from them). Longer is not a block.
  if (rawAllocations.length > size) {
    codecFail(`${path}.allocations`, `has ${rawAllocations.length} entries but block ${cidr} has ${size} addresses`);
  }
  const allocations: (number | null)[] = new Array<number | null>(rawAllocations.length);
  for (let i = 0; i < rawAllocations.length; i++) {
    const a = rawAllocations[i];
    if (a === null) {
      allocations[i] = null;
      continue;
    }
    const index = isCount(a) ? a : asCount(a, elementPath(path, 'allocations', i));
    if (index >= attributes.length) codecFail(elementPath(path, 'allocations', i), `attribute index ${index} is out of range`);
    allocations[i] = index;
  }
  const rawUnallocated = optArray(obj, 'unallocated', path) ?? [];
  const unallocated: number[] = new Array<number>(rawUnallocated.length);
  for (let i = 0; i < rawUnallocated.length; i++) {
    const o = rawUnallocated[i];
    const ordinal = isCount(o) ? o : asCount(o, elementPath(path, 'unallocated', i));
    if (ordinal >= size) codecFail(elementPath(path, 'unallocated', i), `ordinal ${ordinal} is outside the block`);
    unallocated[i] = ordinal;
  }
  const seqMap = optObject(obj, 'sequenceNumberForAllocation', path) ?? {};
  const sequenceNumberForAllocation: Record<string, bigint> = {};
  const seqKeys = Object.keys(seqMap);
  for (let i = 0; i < seqKeys.length; i++) {
    const k = seqKeys[i] as string;
    if (!isDecimalOrdinal(k)) codecFail(elementPath(path, 'sequenceNumberForAllocation', k), 'key is not a decimal ordinal');
    sequenceNumberForAllocation[k] = uint64Of(seqMap[k]) ?? asUint64(seqMap[k], elementPath(path, 'sequenceNumberForAllocation', k));
  }
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
  const attributes: JsonObject[] = new Array<JsonObject>(block.attributes.length);
  for (let i = 0; i < attributes.length; i++) attributes[i] = encodeAttribute(block.attributes[i] as AllocationAttribute, form, path, i);
  out.attributes = attributes;
  out.sequenceNumber = checkUint64(block.sequenceNumber, `${path}.sequenceNumber`);
  const seqs: Record<string, bigint> = {};
  const seqKeys = Object.keys(block.sequenceNumberForAllocation);
  for (let i = 0; i < seqKeys.length; i++) {
    const k = seqKeys[i] as string;
    const v = block.sequenceNumberForAllocation[k];
    setOwn(seqs, k, isUint64(v) ? v : checkUint64(v, elementPath(path, 'sequenceNumberForAllocation', k)));
  }
  out.sequenceNumberForAllocation = form === 'etcd' ? sortedMap(seqs) : seqs;
  out.deleted = block.deleted;
  if (form === 'kdd') out.strictAffinity = false;
  return out;
}
