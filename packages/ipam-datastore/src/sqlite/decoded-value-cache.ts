import { copyValue } from '../engine/copy-value.js';
import type { KindName } from '../engine/kinds.js';
import { decodeFreeBlockText } from './free-block-text.js';
import { decodeValue } from './row-codec.js';

/** A memoised value; `revision` and `handedOver` let a read by key skip reading the text. */
export interface DecodedEntry {
  readonly text: string;
  /** Equal to `decodeValue(kind, text)`; handed out only as copies, or once by `take`. */
  readonly value: Record<string, unknown>;
  /** Seeded by a write of this connection: `take` may hand the value itself over. */
  readonly written: boolean;
  /** The row revision `text` was read or written at; undefined when not known. */
  readonly revision: bigint | undefined;
  /** Set once `take` handed `value` over: from then on nobody may read it. */
  handedOver: boolean;
}

/**
 * Memoises `decodeValue` per row key, keyed by the row's exact stored text: a hit needs the text
 * read now to equal the text of the entry, and an entry's value is always what decoding its text
 * gives, so a hit can never return a stale value (whatever wrote the row, in whatever process,
 * committed or rolled back) and needs no invalidation. Callers get a fresh copy each time, which
 * is several times cheaper than parsing the lossless JSON again. A row this connection writes is
 * seeded with the value it wrote (`seed`), so the next read of a block, which changes on every
 * write, hits as well.
 *
 * A read by key may also hit by revision, without reading the text at all (`byRevision`;
 * design/ipam-datastore.md, "Values read only on a miss"): a committed revision names one value of
 * its row forever, since revisions only grow. An entry stored inside a write transaction may name
 * a revision that never commits (the next write would take the same number for another value), so
 * such entries are remembered (`track`) and dropped unless the transaction commits (`settle`).
 */
export class DecodedValueCache {
  private readonly entries = new Map<string, DecodedEntry>();
  /** Ids stored since `track`, while a write transaction is open. */
  private pending: Set<string> | undefined;

  constructor(private readonly capacity: number) {}

  /** From now until `settle`, entries stored may name revisions that never commit. */
  track(): void {
    this.pending = new Set();
  }

  /** Ends `track`: entries stored since are kept if the transaction committed, dropped if not. */
  settle(committed: boolean): void {
    const pending = this.pending;
    this.pending = undefined;
    if (committed || pending === undefined) return;
    for (const id of pending) this.entries.delete(id);
  }

  /** The entry of a row, if any, for a read that may then skip the text when the row's revision is the entry's. */
  byRevision(kind: KindName, key: string): DecodedEntry | undefined {
    const entry = this.entries.get(`${kind}\u0000${key}`);
    return entry?.revision === undefined ? undefined : entry;
  }

  decode(kind: KindName, key: string, text: string, revision?: bigint): Record<string, unknown> {
    const id = `${kind}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit?.text === text) return copyValue(hit.value);
    const value = decodeValue(kind, text);
    this.store(id, { text, value: copyValue(value), written: false, revision, handedOver: false });
    return value;
  }

  /**
   * As `decode`, except that a hit on an entry a write seeded hands out the entry's own value and
   * drops the entry (no copy: nothing else holds it any more). For a transaction's read of a row
   * by key: such a row (the block an allocation takes from, its handle) is most often written
   * again by the same transaction, which seeds a new entry. A row read and not written is decoded
   * once on its next read and then kept as a decoded entry, which is copied from then on until a
   * write seeds it again (design/ipam-datastore.md, "Allocation cost: fewer statements").
   */
  take(kind: KindName, key: string, text: string, revision?: bigint): Record<string, unknown> {
    const id = `${kind}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit?.text !== text || !hit.written) return this.decode(kind, key, text, revision);
    return this.handOver(id, hit);
  }

  /**
   * The value of `entry`, found by revision before the read (`byRevision`): as `take` or `decode`
   * on its text would give it. Undefined when the entry was handed over meanwhile (its value may
   * have been changed by its taker): the caller then reads the text.
   */
  fromEntry(kind: KindName, key: string, entry: DecodedEntry, take: boolean): Record<string, unknown> | undefined {
    if (entry.handedOver) return undefined;
    const id = `${kind}\u0000${key}`;
    if (take && entry.written && this.entries.get(id) === entry) return this.handOver(id, entry);
    return copyValue(entry.value);
  }

  private handOver(id: string, entry: DecodedEntry): Record<string, unknown> {
    this.entries.delete(id);
    entry.handedOver = true;
    return entry.value;
  }

  /**
   * As `decode`, but a miss is not stored: a scan of every row must not evict the rows in use. A
   * block with no allocated ordinal is read without the lossless decode (design/ipam-datastore.md,
   * "Paged reads of blocks with no allocation").
   */
  decodeWithoutStoring(kind: KindName, key: string, text: string): Record<string, unknown> {
    const hit = this.entries.get(`${kind}\u0000${key}`);
    if (hit?.text === text) return copyValue(hit.value);
    return (kind === 'block' ? decodeFreeBlockText(text, key) : undefined) ?? decodeValue(kind, text);
  }

  /**
   * Records that `text` decodes to `value`, written at `revision`. The caller must pass a private
   * copy equal to `decodeValue(kind, text)` (see decodedCopy) and not keep it.
   */
  seed(kind: KindName, key: string, text: string, value: Record<string, unknown>, revision?: bigint): void {
    this.store(`${kind}\u0000${key}`, { text, value, written: true, revision, handedOver: false });
  }

  private store(id: string, entry: DecodedEntry): void {
    this.entries.delete(id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(id, entry);
    this.pending?.add(id);
  }
}
