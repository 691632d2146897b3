import { parseWireJson, type BlockOrdinals } from '@ipamkit/models';

/**
 * Reading a block that has no allocated ordinal without the lossless JSON decode
 * (design/ipam-datastore.md, "Paged reads of blocks with no allocation").
 *
 * Most blocks of a large datastore hold no allocation, and their stored text (the native writer's
 * `encodeExact`) is one shape: the CIDR (and maybe the owner), an `allocations` array of nulls,
 * the free ordinals, empty attributes, the sequence number, an empty per-allocation map and
 * `deleted`, then the owner fields. `decodeFreeBlockText` recognises exactly that text and builds
 * the value `decodeValue` would give for it, key order included; for any other text (an
 * allocation, the arrays in another order, whitespace among them, a number the recogniser does not
 * read as the parsers would) it answers `undefined` and the caller decodes as before. It never
 * accepts a text the parsers would refuse: what comes before `allocations` and after `deleted`
 * goes through the lossless parser itself.
 */

const HEAD = '{"cidr":"';
const ALLOCATIONS = ',"allocations":[';
const UNALLOCATED = '],"unallocated":[';
const SEQUENCE = '],"attributes":[],"sequenceNumber":';
const PER_ALLOCATION = ',"sequenceNumberForAllocation":{},"deleted":';
/** The keys the recogniser reads itself: the fields before and after them must not repeat one (a duplicate key). */
const MIDDLE_KEYS = new Set(['allocations', 'unallocated', 'attributes', 'sequenceNumber', 'sequenceNumberForAllocation', 'deleted', '__proto__']);

/** Calico's largest block (a /20 or /116); larger arrays are left to the parsers. */
const MAX_ORDINALS = 4096;
/** Free ordinals are read here only up to this many digits: both parsers read them as plain numbers. */
const MAX_ORDINAL_DIGITS = 15;

interface SizeTexts {
  /** `null,null,…,null`: the inside of the `allocations` of a block of this size with no allocation. */
  readonly nulls: string;
  readonly nullAllocations: readonly null[];
  readonly sharedNullAllocations: readonly null[];
  readonly sharedInOrderOrdinals: readonly number[];
  /** `0,1,…,n−1`: the inside of `unallocated` of a block of this size never allocated from. */
  readonly inOrder: string;
  readonly inOrderOrdinals: readonly number[];
}

/** Per power-of-two block size (at most 13 of them), built on first use. */
const sizeTexts = new Map<number, SizeTexts>();

/** The texts of a block of `n` addresses, or undefined when `n` is no block size (a short array). */
function textsOfSize(n: number): SizeTexts | undefined {
  if (!Number.isInteger(n) || n < 1 || n > MAX_ORDINALS || (n & (n - 1)) !== 0) return undefined;
  let texts = sizeTexts.get(n);
  if (texts === undefined) {
    const inOrderOrdinals = Array.from({ length: n }, (_, o) => o);
    const nullAllocations = Array.from({ length: n }, () => null);
    texts = {
      nulls: nullAllocations.map(() => 'null').join(','),
      nullAllocations,
      inOrder: inOrderOrdinals.join(','),
      inOrderOrdinals,
      // Frozen copies for `freeBlockOrdinals` to hand out as they are. The originals stay unfrozen
      // because they are copied per block: slicing a frozen array leaves V8's fast path.
      sharedNullAllocations: Object.freeze(nullAllocations.slice()),
      sharedInOrderOrdinals: Object.freeze(inOrderOrdinals.slice()),
    };
    sizeTexts.set(n, texts);
  }
  return texts;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const COMMA = 0x2c;
const QUOTE = 0x22;

/** Whether every character of text[from, to) may appear in a CIDR (hex digits, '.', ':', '/'). */
function isCidrText(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    const ok =
      (c >= DIGIT_0 && c <= DIGIT_9) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46) || c === 0x2e || c === 0x3a || c === 0x2f;
    if (!ok) return false;
  }
  return true;
}

/**
 * The JSON integers of text[from, to) separated by single commas (`0,1,2`), or undefined if it is
 * anything else (a leading zero, a sign, a fraction, a long literal, an empty element).
 */
function ordinalList(text: string, from: number, to: number): number[] | undefined {
  const out: number[] = [];
  if (from === to) return out;
  let i = from;
  for (;;) {
    const start = i;
    let n = 0;
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c < DIGIT_0 || c > DIGIT_9) break;
      n = n * 10 + (c - DIGIT_0);
      i += 1;
    }
    const digits = i - start;
    if (digits === 0 || digits > MAX_ORDINAL_DIGITS || (digits > 1 && text.charCodeAt(start) === DIGIT_0)) return undefined;
    out.push(n);
    if (i === to) return out;
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i += 1;
  }
}

/** The end of the run of JSON integer digits at `from` (no sign, no leading zero), or -1. */
function integerEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    i += 1;
  }
  if (i === from || (i - from > 1 && text.charCodeAt(from) === DIGIT_0)) return -1;
  return i;
}

/**
 * The fields before `allocations` and where they end (the comma before it). Usually that is the
 * CIDR alone and equal to the row's key, which the value then holds itself: a slice of the text
 * would keep the whole text alive for as long as the caller keeps the CIDR (a row per block).
 * Otherwise (an owner written before the arrays, a CIDR with another spelling) the lossless parser
 * reads them; a cut inside a string or a nested object leaves text it refuses.
 */
function headOf(text: string, key: string): { readonly fields: Record<string, unknown> | undefined; readonly end: number } | undefined {
  const cidrEnd = HEAD.length + key.length;
  if (text.startsWith(HEAD) && text.charCodeAt(cidrEnd) === QUOTE && text.startsWith(key, HEAD.length) && isCidrText(key, 0, key.length)) {
    // `fields: undefined` stands for `{ cidr: key }`, built by the caller as one literal.
    if (text.startsWith(ALLOCATIONS, cidrEnd + 1)) return { fields: undefined, end: cidrEnd + 1 };
  }
  const end = text.indexOf(ALLOCATIONS);
  if (end < 0) return undefined;
  let fields: unknown;
  try {
    fields = parseWireJson(`${text.slice(0, end)}}`);
  } catch {
    return undefined;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const names = Object.keys(fields);
  // `{,"allocations":…` is not JSON, though `{}` is.
  if (names.length === 0 || names.some((name) => MIDDLE_KEYS.has(name))) return undefined;
  return { fields: fields as Record<string, unknown>, end };
}

/** What `scanFreeBlock` found in a free block's text. */
interface FreeBlockScan {
  /** Undefined: the head is `{ cidr: key }`. */
  readonly headFields: Record<string, unknown> | undefined;
  readonly texts: SizeTexts;
  /** Undefined: the free ordinals are `texts.inOrderOrdinals`. */
  readonly unallocated: number[] | undefined;
  readonly sequenceText: string;
  readonly deleted: boolean;
  /** The fields after `deleted`, none of which repeats an earlier key. */
  readonly tailFields: Record<string, unknown> | undefined;
}

/** The parts of a free block's stored text, or undefined when the text is not exactly that shape. */
function scanFreeBlock(text: string, key: string): FreeBlockScan | undefined {
  const head = headOf(text, key);
  if (head === undefined) return undefined;

  const nullsStart = head.end + ALLOCATIONS.length;
  const nullsEnd = text.indexOf(']', nullsStart);
  // n nulls take 5n − 1 characters.
  const nullsLength = nullsEnd - nullsStart;
  const texts = textsOfSize((nullsLength + 1) / 5);
  // Compared as whole strings: one memory comparison, where a character loop costs more than JSON.parse.
  if (texts === undefined || text.slice(nullsStart, nullsEnd) !== texts.nulls || !text.startsWith(UNALLOCATED, nullsEnd)) return undefined;

  const freeStart = nullsEnd + UNALLOCATED.length;
  const freeEnd = text.indexOf(']', freeStart);
  if (freeEnd < 0 || !text.startsWith(SEQUENCE, freeEnd)) return undefined;
  let unallocated: number[] | undefined;
  if (text.slice(freeStart, freeEnd) !== texts.inOrder) {
    unallocated = ordinalList(text, freeStart, freeEnd);
    if (unallocated === undefined) return undefined;
  }

  const sequenceStart = freeEnd + SEQUENCE.length;
  const sequenceEnd = integerEnd(text, sequenceStart);
  if (sequenceEnd < 0 || !text.startsWith(PER_ALLOCATION, sequenceEnd)) return undefined;

  const deletedStart = sequenceEnd + PER_ALLOCATION.length;
  let deleted: boolean;
  let tailStart: number;
  if (text.startsWith('false', deletedStart)) {
    deleted = false;
    tailStart = deletedStart + 5;
  } else if (text.startsWith('true', deletedStart)) {
    deleted = true;
    tailStart = deletedStart + 4;
  } else {
    return undefined;
  }
  const sequenceText = text.slice(sequenceStart, sequenceEnd);
  if (tailStart === text.length - 1 && text.charCodeAt(tailStart) === 0x7d) {
    return { headFields: head.fields, texts, unallocated, sequenceText, deleted, tailFields: undefined };
  }
  if (text.charCodeAt(tailStart) !== COMMA) return undefined;
  // The owner fields and anything else after `deleted`: the lossless parser reads them, and refuses
  // what it would refuse in the whole text (a bad literal, trailing data).
  let tail: unknown;
  try {
    tail = parseWireJson(`{${text.slice(tailStart + 1)}`);
  } catch {
    return undefined;
  }
  if (typeof tail !== 'object' || tail === null || Array.isArray(tail)) return undefined;
  const names = Object.keys(tail);
  // `…"deleted":false,}` is not JSON, though `{}` is; a repeated key takes the last value in the parsers.
  if (names.length === 0) return undefined;
  for (const name of names) {
    if (MIDDLE_KEYS.has(name) || (head.fields === undefined ? name === 'cidr' : Object.hasOwn(head.fields, name))) return undefined;
  }
  return { headFields: head.fields, texts, unallocated, sequenceText, deleted, tailFields: tail as Record<string, unknown> };
}

/**
 * `decodeValue('block', text)` for the stored text, under `key`, of a block with no allocated
 * ordinal, or `undefined` when `text` is not exactly that shape (then decode it as before).
 */
export function decodeFreeBlockText(text: string, key: string): Record<string, unknown> | undefined {
  const scan = scanFreeBlock(text, key);
  if (scan === undefined) return undefined;
  const allocations = scan.texts.nullAllocations.slice();
  const unallocated = scan.unallocated ?? scan.texts.inOrderOrdinals.slice();
  const sequenceNumber = BigInt(scan.sequenceText);
  const { deleted } = scan;
  // One literal in the usual case: spreading the head's fields in builds the object key by key.
  const value: Record<string, unknown> =
    scan.headFields === undefined
      ? { cidr: key, allocations, unallocated, attributes: [], sequenceNumber, sequenceNumberForAllocation: {}, deleted }
      : { ...scan.headFields, allocations, unallocated, attributes: [], sequenceNumber, sequenceNumberForAllocation: {}, deleted };
  if (scan.tailFields !== undefined) for (const name of Object.keys(scan.tailFields)) value[name] = scan.tailFields[name];
  return value;
}

/**
 * The `BlockOrdinals` of the same text (what `blockOrdinalsOf` gives for the decoded value), or
 * undefined. The arrays of a block never allocated from are shared and frozen, one pair per block
 * size: a scan of every block then allocates one small object per block, not two arrays.
 */
export function freeBlockOrdinals(text: string, key: string): BlockOrdinals | undefined {
  const scan = scanFreeBlock(text, key);
  if (scan === undefined) return undefined;
  const cidr = scan.headFields === undefined ? key : scan.headFields['cidr'];
  // A value without a CIDR string is blockOrdinalsOf's CodecError to raise.
  if (typeof cidr !== 'string') return undefined;
  return { cidr, allocations: scan.texts.sharedNullAllocations, unallocated: scan.unallocated ?? scan.texts.sharedInOrderOrdinals };
}
