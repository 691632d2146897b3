import type { AllocationAttribute, AllocationBlock } from '../resources/allocation-block.js';
import { formatBlockOwner } from './block-fields.js';
import { checkUint64, isUint64 } from './field-readers.js';
import { normalizeTimestamp } from './timestamp.js';
import { wireCidr } from './wire-cidr.js';

/**
 * A block's etcd value written straight to text (design/models.md, "The etcd block writer"): the
 * same bytes as `stringifyWireJson(encodeBlockFields(block, 'etcd', path))`, without building the
 * intermediate object, its sorted Maps and the classifying walk over them. It checks what the
 * general path checks, in the same order, so a malformed block fails with the same CodecError.
 * Anything the general path would write in a way this writer does not (a value of an unexpected
 * type, a hole, a number JSON cannot hold) returns `undefined`, and the caller takes the general
 * path, which then decides exactly as before.
 */
export function writeEtcdBlockJson(block: AllocationBlock, path: string): string | undefined {
  const cidr = wireCidr(block.cidr, `${path}.cidr`);
  const affinity = block.affinity === undefined ? 'null' : JSON.stringify(formatBlockOwner(block.affinity));
  let out = `{"cidr":${JSON.stringify(cidr)},"affinity":${affinity}`;
  if (block.affinityClaimTime !== undefined) {
    out += `,"affinity_claim_time":${JSON.stringify(normalizeTimestamp(block.affinityClaimTime, `${path}.affinityClaimTime`))}`;
  }
  if (!isOrdinalList(block.allocations) || !isOrdinalList(block.unallocated)) return undefined;
  out += `,"allocations":${JSON.stringify(block.allocations)},"unallocated":${JSON.stringify(block.unallocated)},"attributes":`;
  const attributes = attributesJson(block.attributes, `${path}.attributes`);
  if (attributes === undefined) return undefined;
  out += `${attributes},"sequenceNumber":${checkUint64(block.sequenceNumber, `${path}.sequenceNumber`).toString()}`;
  const seqs = sequenceNumbersJson(block.sequenceNumberForAllocation, `${path}.sequenceNumberForAllocation`);
  if (seqs === undefined || typeof block.deleted !== 'boolean') return undefined;
  return `${out},"sequenceNumberForAllocation":${seqs},"deleted":${block.deleted ? 'true' : 'false'}}`;
}

/** An array whose native JSON is what the general writer makes of it: entries null, absent or finite numbers. */
function isOrdinalList(items: readonly (number | null)[]): boolean {
  if (!Array.isArray(items)) return false;
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (item !== null && item !== undefined && !(typeof item === 'number' && Number.isFinite(item))) return false;
  }
  return true;
}

function attributesJson(attributes: readonly AllocationAttribute[], path: string): string | undefined {
  if (!Array.isArray(attributes)) return undefined;
  let out = '[';
  for (let i = 0; i < attributes.length; i++) {
    const attr: unknown = attributes[i];
    if (typeof attr !== 'object' || attr === null) return undefined;
    const text = attributeJson(attr, path, i);
    if (text === undefined) return undefined;
    out += i === 0 ? text : `,${text}`;
  }
  return `${out}]`;
}

/**
 * The text of each attribute frozen with its owner maps (the core freezes every attribute it makes):
 * such an attribute never changes, so its text is written once and reused by every later write of
 * the block (design/models.md, "The etcd block writer").
 */
const frozenTexts = new WeakMap<AllocationAttribute, string>();

const frozenMap = (map: unknown): boolean => map === undefined || Object.isFrozen(map);

function frozenWithMaps(attr: AllocationAttribute): boolean {
  return Object.isFrozen(attr) && Object.getPrototypeOf(attr) === Object.prototype && frozenMap(attr.activeOwnerAttrs) && frozenMap(attr.alternateOwnerAttrs);
}

/** One attribute in Calico's field order; its owner maps with sorted keys, as Go writes a map. */
function attributeJson(attr: AllocationAttribute, attributesPath: string, index: number): string | undefined {
  const known = frozenTexts.get(attr);
  if (known !== undefined) return known;
  const text = freshAttributeJson(attr, attributesPath, index);
  if (text !== undefined && frozenWithMaps(attr)) frozenTexts.set(attr, text);
  return text;
}

function freshAttributeJson(attr: AllocationAttribute, attributesPath: string, index: number): string | undefined {
  let out = '{';
  const handleId: unknown = attr.handleId;
  if (handleId !== undefined && handleId !== '') {
    if (typeof handleId !== 'string') return undefined;
    out += `"handle_id":${JSON.stringify(handleId)}`;
  }
  const secondary = stringMapJson(attr.activeOwnerAttrs);
  if (secondary === undefined) return undefined;
  if (secondary !== '') out += `${out.length > 1 ? ',' : ''}"secondary":${secondary}`;
  const alternate = stringMapJson(attr.alternateOwnerAttrs);
  if (alternate === undefined) return undefined;
  if (alternate !== '') out += `${out.length > 1 ? ',' : ''}"alternateOwnerAttrs":${alternate}`;
  if (attr.releasedAt !== undefined) {
    out += `${out.length > 1 ? ',' : ''}"releasedAt":${JSON.stringify(normalizeTimestamp(attr.releasedAt, `${attributesPath}[${index}].releasedAt`))}`;
  }
  return `${out}}`;
}

/**
 * An owner map of strings with its keys in code-unit order ('' when absent or empty, as the general
 * path leaves it out); `undefined` for anything else. The native writer with the sorted keys as its
 * property list writes exactly those members in that order.
 */
function stringMapJson(map: unknown): string | undefined {
  if (map === undefined) return '';
  if (typeof map !== 'object' || map === null) return undefined;
  // A toJSON of its own class would take over the native writer.
  const proto: unknown = Object.getPrototypeOf(map);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Object.keys(map);
  if (keys.length === 0) return '';
  const record = map as Readonly<Record<string, unknown>>;
  // Indexed: an iterator per map is garbage a plugin call's interpreter keeps (design/models.md, "Decoding without garbage").
  for (let i = 0; i < keys.length; i++) if (typeof record[keys[i] as string] !== 'string') return undefined;
  return JSON.stringify(map, keys.sort());
}

/** Checked in the map's own order (the first bad entry is the one named), written in key order. */
function sequenceNumbersJson(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const seqs = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(seqs);
  // The entry's path is text only when it fails (design/models.md, "Decoding without garbage").
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (!isUint64(seqs[key])) checkUint64(seqs[key], `${path}[${JSON.stringify(key)}]`);
  }
  keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${String(seqs[key])}`;
  }
  return `${out}}`;
}
