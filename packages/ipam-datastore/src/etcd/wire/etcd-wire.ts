/**
 * The narrow etcd v3 API the backend is built on, with two implementations: `http` (etcd's JSON
 * gateway over node:http(s)) and `grpc` (the etcd3 library, loaded only when chosen). Keys and
 * range ends are bytes; values come back as UTF-8 text; int64s are decimal strings, as etcd's JSON
 * gateway writes them. See design/ipam-datastore.md, "etcd clients".
 */

/** One stored key as etcd returns it (the key still carries the configured prefix). */
export interface WireKv {
  readonly key: Buffer;
  readonly value: string;
  readonly modRevision: string;
  readonly createRevision: string;
}

/** A read of one key (`end` absent) or of [key, end), at `revision` (absent: the current one). */
export interface WireRange {
  readonly key: Buffer;
  readonly end?: Buffer;
  readonly revision?: string;
  /** At most this many keys, the first in key order (absent: all). */
  readonly limit?: number;
}

/** A transaction compare: `target` revision of `key` (or of every key in [key, end)) is `result` to `revision`. */
export interface WireCompare {
  readonly key: Buffer;
  readonly end?: Buffer;
  readonly target: 'create' | 'mod';
  readonly result: 'equal' | 'less';
  readonly revision: string;
}

export type WireOp =
  | { readonly op: 'range'; readonly range: WireRange }
  | { readonly op: 'put'; readonly key: Buffer; readonly value: Buffer }
  | { readonly op: 'delete'; readonly key: Buffer };

export interface WireTxnResult {
  readonly succeeded: boolean;
  /** The store revision the transaction ran at (after it, when it wrote). */
  readonly revision: string;
  /** The keys each op of the branch that ran returned (empty for puts and deletes), in op order. */
  readonly responses: WireKv[][];
}

export interface WireWatchEvent {
  readonly type: 'put' | 'delete';
  readonly kv: WireKv;
  readonly previous: WireKv | undefined;
}

export interface WireWatchRequest {
  readonly key: Buffer;
  readonly end?: Buffer;
  /** First revision to deliver (inclusive); absent: from now. */
  readonly startRevision?: string;
}

/**
 * What a watch reports. The implementation re-establishes a broken stream by itself, resuming at
 * the first revision it has not delivered yet; `onFailure` ends the watch (no call after it).
 */
export interface WireWatchHandlers {
  onEvents(events: readonly WireWatchEvent[]): void;
  onFailure(err: unknown): void;
}

export interface WireWatch {
  /** Stops the stream; no handler is called afterwards. */
  cancel(): Promise<void>;
}

export interface EtcdWire {
  /** A description of the endpoints for error messages (no user info, no secrets). */
  readonly target: string;
  range(range: WireRange): Promise<{ kvs: WireKv[]; revision: string }>;
  txn(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): Promise<WireTxnResult>;
  /** Deletes one key; `deleted` = how many keys existed. */
  deleteKey(key: Buffer): Promise<{ deleted: number; revision: string }>;
  /** Resolves once etcd has created the watch. */
  watch(request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch>;
  close(): void;
}

/** The end of the range of every key starting with `prefix`: its last byte below 0xff plus one. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    const byte = end[i] ?? 0;
    if (byte < 0xff) {
      end[i] = byte + 1;
      return end.subarray(0, i + 1);
    }
  }
  // Every byte 0xff (or empty): etcd's "to the end of the keyspace".
  return Buffer.from([0]);
}
