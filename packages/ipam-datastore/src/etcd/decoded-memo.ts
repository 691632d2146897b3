import { copyValue } from '../engine/copy-value.js';

/** Decoded versions remembered: enough for a few hosts' blocks plus what every AutoAssign reads. */
const CAPACITY = 512;

/**
 * Decoded values by key and mod revision. A mod revision names exactly one version of a key, so
 * an entry can never be stale: it simply stops being asked for. Decoding a /26 block from Calico's
 * JSON costs milliseconds (attributes, timestamps, CIDRs); a copy of the decoded value costs tens
 * of microseconds. Callers always get their own copy.
 */
export class DecodedMemo {
  private readonly entries = new Map<string, { readonly modRevision: string; readonly value: unknown }>();

  /** The value of `key` at `modRevision`, decoding (and remembering) it on a miss. */
  decode<T>(key: string, modRevision: string, decode: () => T): T {
    const hit = this.entries.get(key);
    if (hit?.modRevision === modRevision) return copyValue(hit.value as T);
    const value = decode();
    if (value !== undefined) this.remember(key, modRevision, value);
    return value;
  }

  /** Records `value` as the version of `key` written at `modRevision` (a private copy is kept). */
  remember(key: string, modRevision: string, value: unknown): void {
    this.entries.delete(key);
    if (this.entries.size >= CAPACITY) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { modRevision, value: copyValue(value) });
  }
}
