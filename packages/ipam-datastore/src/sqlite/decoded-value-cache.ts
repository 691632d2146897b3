import { copyValue } from '../engine/copy-value.js';
import type { KindName } from '../engine/kinds.js';
import { decodeFreeBlockText } from './free-block-text.js';
import { decodeValue } from './row-codec.js';

interface Entry {
  readonly text: string;
  /** Equal to `decodeValue(kind, text)`; handed out only as copies, or once by `take`. */
  readonly value: Record<string, unknown>;
  /** Seeded by a write of this connection: `take` may hand the value itself over. */
  readonly written: boolean;
}

/**
 * Memoises `decodeValue` per row key, keyed by the row's exact stored text: a hit needs the text
 * read now to equal the text of the entry, and an entry's value is always what decoding its text
 * gives, so a hit can never return a stale value (whatever wrote the row, in whatever process,
 * committed or rolled back) and needs no invalidation. Callers get a fresh copy each time, which
 * is several times cheaper than parsing the lossless JSON again. A row this connection writes is
 * seeded with the value it wrote (`seed`), so the next read of a block, which changes on every
 * write, hits as well.
 */
export class DecodedValueCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  decode(kind: KindName, key: string, text: string): Record<string, unknown> {
    const id = `${kind}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit?.text === text) return copyValue(hit.value);
    const value = decodeValue(kind, text);
    this.store(id, { text, value: copyValue(value), written: false });
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
  take(kind: KindName, key: string, text: string): Record<string, unknown> {
    const id = `${kind}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit?.text !== text || !hit.written) return this.decode(kind, key, text);
    this.entries.delete(id);
    return hit.value;
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
   * Records that `text` decodes to `value`. The caller must pass a private copy equal to
   * `decodeValue(kind, text)` (see decodedCopy) and not keep it.
   */
  seed(kind: KindName, key: string, text: string, value: Record<string, unknown>): void {
    this.store(`${kind}\u0000${key}`, { text, value, written: true });
  }

  private store(id: string, entry: Entry): void {
    this.entries.delete(id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(id, entry);
  }
}
