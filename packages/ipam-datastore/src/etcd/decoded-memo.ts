import { copyValue } from '../engine/copy-value.js';

/** Decoded versions remembered: enough for a few hosts' blocks plus what every AutoAssign reads. */
const CAPACITY = 512;

interface Entry {
  readonly modRevision: string;
  readonly value: unknown;
  /** Remembered from a committed write (a private copy nobody else holds), not from a decode. */
  readonly written: boolean;
}

/**
 * Decoded values by key and mod revision. A mod revision names exactly one version of a key, so
 * an entry can never be stale: it simply stops being asked for. Decoding a /26 block from Calico's
 * JSON costs milliseconds (attributes, timestamps, CIDRs); a copy of the decoded value costs tens
 * of microseconds. Callers always get a value of their own: a copy, or (`take`) the entry itself.
 */
export class DecodedMemo {
  private readonly entries = new Map<string, Entry>();

  /**
   * The value of `key` at `modRevision`, decoding (and remembering) it on a miss. With `take`, a
   * hit on an entry a write left is handed over as it is and forgotten (no copy: the next reader
   * of that version decodes it again); a hit on a decoded entry is copied and kept, so a value read
   * and not written is decoded once (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)").
   */
  decode<T>(key: string, modRevision: string, decode: () => T, take = false): T {
    const hit = this.entries.get(key);
    if (hit?.modRevision === modRevision) {
      if (!take || !hit.written) return copyValue(hit.value as T);
      this.entries.delete(key);
      return hit.value as T;
    }
    const value = decode();
    if (value !== undefined) this.keep(key, { modRevision, value: copyValue(value), written: false });
    return value;
  }

  /**
   * Records `value` as the version of `key` written at `modRevision` (a private copy is kept, which
   * shares the deeply frozen objects, a block's attributes, so that the next write of the block
   * finds their etcd text remembered: design/ipam-datastore.md, "Frozen attributes").
   */
  remember(key: string, modRevision: string, value: unknown): void {
    this.keep(key, { modRevision, value: copyValue(value, true), written: true });
  }

  private keep(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= CAPACITY) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }
}
