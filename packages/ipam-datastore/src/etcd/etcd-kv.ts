import { ValidationError } from '@ipamkit/models';
import { DecodedMemo } from './decoded-memo.js';
import type { TxReadCache } from './tx-read-cache.js';
import { retryUnavailable, type TransportRetry } from '../transport-retry.js';
import { translateEtcdError } from './translate-etcd-error.js';
import { prefixEnd, type EtcdWire, type WireCompare, type WireKv, type WireOp, type WireRange } from './wire/etcd-wire.js';

/** One stored key, with the key as Calico names it (our configured prefix removed). */
export interface RawKv {
  readonly key: string;
  readonly value: string;
  /** etcd mod revision, decimal: what every CAS compares and what callers see as `revision`. */
  readonly modRevision: string;
  readonly createRevision: string;
}

/** A precondition of a multi-key transaction. */
export type TxnCompare =
  | { readonly key: string; readonly expect: 'absent' }
  | { readonly key: string; readonly expect: 'revision'; readonly revision: string }
  /** The key still exists as the same incarnation: create revision unchanged (not deleted, not re-created). */
  | { readonly key: string; readonly expect: 'created'; readonly revision: string }
  /** No key in the prefix range `key` (or [key, end)) was created or modified after `revision`. */
  | { readonly key: string; readonly end?: string; readonly expect: 'unchanged-since'; readonly revision: string };

/** One read of a batch: a single key, or every key of a prefix (or of [start, end)). */
export type ReadRequest = { readonly kind: 'key'; readonly key: string } | { readonly kind: 'range'; readonly start: string; readonly end?: string };

/** The answer to a ReadRequest: the key's state (undefined = absent), or the range's keys in key order. */
export type ReadResult = RawKv | undefined | RawKv[];

export interface TxnRequest {
  readonly compares: readonly TxnCompare[];
  readonly ops: readonly TxnOp[];
  /** Read in the else branch when a compare fails, so the caller learns why in the same round trip. */
  readonly elseReads: readonly ReadRequest[];
  readonly identifier: string;
}

export interface TxnResult {
  readonly succeeded: boolean;
  readonly revision: string;
  /** On failure, the answers to `elseReads`, in order. */
  readonly elseResults: ReadResult[];
}

export type TxnOp = { readonly op: 'put'; readonly key: string; readonly value: string } | { readonly op: 'delete'; readonly key: string };

export interface TxnOutcome {
  readonly succeeded: boolean;
  /** The store revision after the transaction: the new mod revision of every key it wrote. */
  readonly revision: string;
  /** On failure, the current state of each compared key (undefined = absent), in compare order. */
  readonly current: (RawKv | undefined)[];
}

const REVISION = /^[1-9][0-9]{0,18}$/;

/** Wire bytes of the keys and of the prefix ranges' ends used lately: every transaction names the same few again. */
const KEY_BYTES = new Map<string, Buffer>();
const PREFIX_END_BYTES = new Map<string, Buffer>();
const WIRE_BYTES_CAPACITY = 1024;

/**
 * The bytes of a key (or a range end) as the wires send them, made once per key while it is in
 * use (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)"). The buffers
 * are shared: the wires only read them.
 */
function wireBytes(known: Map<string, Buffer>, id: string, make: () => Buffer): Buffer {
  const hit = known.get(id);
  if (hit !== undefined) return hit;
  const bytes = make();
  if (known.size >= WIRE_BYTES_CAPACITY) {
    const oldest = known.keys().next();
    if (oldest.done !== true) known.delete(oldest.value);
  }
  known.set(id, bytes);
  return bytes;
}

/** Rejects revisions that are not etcd mod revisions before they reach a compare. */
export function checkRevision(revision: string, identifier: string): string {
  if (!REVISION.test(revision)) {
    throw new ValidationError(`invalid etcd revision ${JSON.stringify(revision)} for ${identifier}: expected a positive decimal mod revision`);
  }
  return revision;
}

/** What every view of one datastore shares. */
export interface EtcdKvShared {
  /** Decoded values by key and mod revision. */
  readonly memo: DecodedMemo;
  /** What transactions may read without a round trip; told of every write made through `commit`. */
  readonly txCache?: TxReadCache;
  /** Called once per etcd request sent (diagnostics: round trips are counted at the wire). */
  readonly onRequest?: () => void;
}

/**
 * Calico keys over an etcd client (the http or grpc wire, design/ipam-datastore.md "etcd clients"): an optional key prefix (for sharing one etcd between test
 * runs or tenants), error translation and unavailable-retry at one boundary, and the three
 * primitive operations every store is built from: read, range, compare-and-commit.
 */
export class EtcdKv {
  constructor(
    readonly wire: EtcdWire,
    readonly prefix: string,
    readonly retry: TransportRetry,
    readonly shared: EtcdKvShared = { memo: new DecodedMemo() },
  ) {}

  get memo(): DecodedMemo {
    return this.shared.memo;
  }

  /**
   * Whether readers through this view take a decoded value a committed write left instead of a
   * copy of it (transaction views: design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)").
   */
  get takesWrittenValues(): boolean {
    return false;
  }

  get txCache(): TxReadCache | undefined {
    return this.shared.txCache;
  }

  /** One etcd request (retried while etcd is unavailable), reported to `onRequest` per attempt. */
  private request<T>(identifier: string, op: () => Promise<T>): Promise<T> {
    const observe = this.shared.onRequest;
    return retryUnavailable(observe === undefined ? op : () => (observe(), op()), this.retry, (err) => translateEtcdError(err, identifier));
  }

  full(key: string): string {
    return this.prefix + key;
  }

  /** The store's current revision (one cheap read). */
  async currentRevision(): Promise<string> {
    return this.request('revision', async () => (await this.wire.range({ key: this.keyBytes('/') })).revision);
  }

  async get(key: string, atRevision?: string): Promise<RawKv | undefined> {
    return this.request(key, async () => {
      const res = await this.wire.range({ key: this.keyBytes(key), ...(atRevision === undefined ? {} : { revision: atRevision }) });
      const kv = res.kvs[0];
      return kv === undefined ? undefined : this.toRaw(kv);
    });
  }

  /** Every key in [start, end) — or with prefix `start` when `end` is absent — at one revision. */
  async range(start: string, end?: string, atRevision?: string, limit?: number): Promise<{ kvs: RawKv[]; revision: string }> {
    return this.request(start, async () => {
      const range = this.rawRange({ kind: 'range', start, ...(end === undefined ? {} : { end }) }, atRevision);
      const res = await this.wire.range(limit === undefined ? range : { ...range, limit });
      return { kvs: res.kvs.map((kv) => this.toRaw(kv)), revision: res.revision };
    });
  }

  /** Deletes one key unconditionally; returns whether it existed. */
  async deleteKey(key: string): Promise<boolean> {
    return this.request(key, async () => {
      const res = await this.wire.deleteKey(this.keyBytes(key));
      this.txCache?.committed([{ op: 'delete', key }], res.revision, () => undefined);
      return res.deleted !== 0;
    });
  }

  /**
   * One etcd transaction: if every compare holds, apply `ops`; otherwise read every compared key
   * so the caller can tell "missing" from "already there" from "changed" without another round trip.
   */
  async commit(compares: readonly TxnCompare[], ops: readonly TxnOp[], identifier: string): Promise<TxnOutcome> {
    const out = await this.txn({ compares, ops, elseReads: compares.map((c) => ({ kind: 'key', key: c.key })), identifier });
    if (out.succeeded) {
      const created = new Set(compares.filter((c) => c.expect === 'absent').map((c) => c.key));
      this.txCache?.committed(ops, out.revision, (key) => (created.has(key) ? out.revision : undefined));
    }
    return { succeeded: out.succeeded, revision: out.revision, current: out.elseResults.map((r) => (Array.isArray(r) ? r[0] : r)) };
  }

  /** The general transaction: compares, then `ops` or the else-branch reads, in one round trip. */
  async txn(req: TxnRequest): Promise<TxnResult> {
    if (req.compares.length === 0 && req.ops.length > 0) throw new ValidationError(`transaction on ${req.identifier} has no preconditions`);
    const compare = req.compares.map((c) => this.rawCompare(c));
    const success = req.ops.map((o) => this.rawOperation(o));
    const failure = req.elseReads.map((r): WireOp => ({ op: 'range', range: this.rawRange(r) }));
    return this.request(req.identifier, async () => {
      const res = await this.wire.txn(compare, success, failure);
      const elseResults = res.succeeded ? [] : req.elseReads.map((r, i) => this.readResult(r, res.responses[i]));
      return { succeeded: res.succeeded, revision: res.revision, elseResults };
    });
  }

  /**
   * Several reads in one round trip (an etcd transaction without compares), all at one revision:
   * `atRevision` when given, else the current one, which is returned.
   */
  async readMany(requests: readonly ReadRequest[], atRevision?: string): Promise<{ results: ReadResult[]; revision: string }> {
    const success = requests.map((r): WireOp => ({ op: 'range', range: this.rawRange(r, atRevision) }));
    return this.request(requests.length === 1 && requests[0]?.kind === 'key' ? requests[0].key : 'read batch', async () => {
      const res = await this.wire.txn([], success, []);
      return { results: requests.map((r, i) => this.readResult(r, res.responses[i])), revision: atRevision ?? res.revision };
    });
  }

  keyBytes(key: string): Buffer {
    const full = this.full(key);
    return wireBytes(KEY_BYTES, full, () => Buffer.from(full));
  }

  /** The wire range of a prefix (`end` absent) or of [start, end). */
  rangeBytes(start: string, end: string | undefined): { key: Buffer; end: Buffer } {
    const key = this.keyBytes(start);
    return { key, end: end === undefined ? wireBytes(PREFIX_END_BYTES, this.full(start), () => prefixEnd(key)) : this.keyBytes(end) };
  }

  private rawRange(r: ReadRequest, atRevision?: string): WireRange {
    const revision = atRevision === undefined ? {} : { revision: atRevision };
    if (r.kind === 'key') return { key: this.keyBytes(r.key), ...revision };
    return { ...this.rangeBytes(r.start, r.end), ...revision };
  }

  private readResult(r: ReadRequest, kvs: readonly WireKv[] | undefined): ReadResult {
    const found = kvs ?? [];
    if (r.kind === 'key') {
      const kv = found[0];
      return kv === undefined ? undefined : this.toRaw(kv);
    }
    return found.map((kv) => this.toRaw(kv));
  }

  private rawCompare(c: TxnCompare): WireCompare {
    const key = this.keyBytes(c.key);
    switch (c.expect) {
      // A missing key has create revision 0; mod revision comparison also fails for a missing key.
      case 'absent':
        return { key, target: 'create', result: 'equal', revision: '0' };
      case 'revision':
        return { key, target: 'mod', result: 'equal', revision: c.revision };
      case 'created':
        return { key, target: 'create', result: 'equal', revision: c.revision };
      case 'unchanged-since':
        // Every key in the range has mod revision < revision + 1 (an empty range holds).
        return { ...this.rangeBytes(c.key, c.end), target: 'mod', result: 'less', revision: (BigInt(c.revision) + 1n).toString() };
    }
  }

  private rawOperation(o: TxnOp): WireOp {
    const key = this.keyBytes(o.key);
    return o.op === 'put' ? { op: 'put', key, value: Buffer.from(o.value) } : { op: 'delete', key };
  }

  toRaw(kv: WireKv): RawKv {
    const key = kv.key.toString('utf8');
    return {
      key: key.startsWith(this.prefix) ? key.slice(this.prefix.length) : key,
      value: kv.value,
      modRevision: kv.modRevision,
      createRevision: kv.createRevision,
    };
  }
}
