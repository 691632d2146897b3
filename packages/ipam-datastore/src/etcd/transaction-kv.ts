import { ConflictError, WatchExpiredError } from '@ipamkit/models';
import { EtcdKv, type RawKv, type ReadRequest, type ReadResult, type TxnCompare } from './etcd-kv.js';
import { HANDLE_PREFIX } from './etcd-layout.js';
import { rangeId, type TxReadCache } from './tx-read-cache.js';

interface PendingRead {
  readonly req: ReadRequest;
  readonly resolve: (result: ReadResult) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Where a read's answer came from: the cache as it stood when the transaction began, a guess
 * (a handle this client has never seen is taken to be absent: handle IDs are minted per container;
 * not for a transaction that expects its handles to exist, a release), or etcd during this
 * transaction.
 */
type Origin = 'cache' | 'guess' | 'fetched';

interface RecordedRead {
  readonly req: ReadRequest;
  readonly result: ReadResult;
  /** The store revision the answer holds at (a range's compare needs it). */
  readonly revision: string;
  readonly origin: Origin;
}

/** A fetched range this big is not worth validating key by key: the body reruns without the cache. */
const MAX_VALIDATED_RANGE_KEYS = 48;

export class UnvalidatableReadsError extends Error {
  constructor() {
    super('transaction read too much to validate its cached reads in one commit');
  }
}

/** What a failed commit says about the reads, judged from its else branch. */
export type ReadVerdict = 'current' | 'stale-guess' | 'changed';

/**
 * The key-value view a transaction body reads through.
 *
 * - Reads the cache can answer are answered at once; a handle never seen is guessed absent. The
 *   commit then proves every read of the body current (see `validation`), so the body's view is
 *   the state at commit and the steady-state transaction is a single etcd round trip.
 * - Every other read started in the same turn of the event loop goes out together as ONE etcd
 *   transaction of range requests, pinned to the revision of the transaction's first batch.
 * - A key or range read twice in one body gets the first answer again.
 *
 * Without a cache, nothing is guessed or validated: the body reads one pinned snapshot and only
 * the writes' own preconditions are checked at commit.
 */
export class TransactionKv extends EtcdKv {
  private pinned: string | undefined;
  private pending: PendingRead[] = [];
  private readonly recorded = new Map<string, RecordedRead>();

  constructor(
    base: EtcdKv,
    private readonly cache: TxReadCache | undefined,
    /** Take an unseen handle to be absent (design/ipam-datastore.md, "Transactions that expect their handles"). */
    private readonly guessHandlesAbsent = true,
  ) {
    super(base.wire, base.prefix, base.retry, base.shared);
  }

  /** A body reads each key once (a second read decodes again), so it may take what a write left. */
  override get takesWrittenValues(): boolean {
    return true;
  }

  override async get(key: string): Promise<RawKv | undefined> {
    return (await this.read({ kind: 'key', key })) as RawKv | undefined;
  }

  override async range(start: string, end?: string): Promise<{ kvs: RawKv[]; revision: string }> {
    const req: ReadRequest = end === undefined ? { kind: 'range', start } : { kind: 'range', start, end };
    const kvs = [...((await this.read(req)) as RawKv[])];
    return { kvs, revision: this.recorded.get(idOf(req))?.revision ?? '0' };
  }

  /** The create revision of `key` as this transaction saw it, if it read it. */
  createRevisionOf(key: string): string | undefined {
    const direct = this.recorded.get(idOf({ kind: 'key', key }));
    if (direct !== undefined) {
      const known = (direct.result as RawKv | undefined)?.createRevision;
      return known === '' ? undefined : known;
    }
    for (const r of this.recorded.values()) {
      if (Array.isArray(r.result)) {
        const kv = r.result.find((k) => k.key === key);
        if (kv !== undefined) return kv.createRevision;
      }
    }
    return undefined;
  }

  /**
   * The compares proving every read of the body current at commit, and the reads to put in the
   * else branch (in the same order as `verdict` expects them). Empty when the body took nothing
   * from the cache: then its fetched snapshot needs no proof beyond the writes' preconditions.
   */
  validation(): { compares: TxnCompare[]; reads: ReadRequest[] } {
    const all = [...this.recorded.values()];
    if (!all.some((r) => r.origin !== 'fetched')) return { compares: [], reads: [] };
    const compares: TxnCompare[] = [];
    for (const r of all) {
      if (r.req.kind === 'key') {
        const raw = r.result as RawKv | undefined;
        compares.push(raw === undefined ? { key: r.req.key, expect: 'absent' } : { key: r.req.key, expect: 'revision', revision: raw.modRevision });
        continue;
      }
      const kvs = r.result as RawKv[];
      if (kvs.length > MAX_VALIDATED_RANGE_KEYS) throw new UnvalidatableReadsError();
      // Nothing created or modified in the range since it was read, and none of its keys deleted.
      const since = { key: r.req.start, expect: 'unchanged-since', revision: r.revision } as const;
      compares.push(r.req.end === undefined ? since : { ...since, end: r.req.end });
      for (const kv of kvs) compares.push({ key: kv.key, expect: 'created', revision: kv.createRevision });
    }
    return { compares, reads: all.map((r) => r.req) };
  }

  /**
   * After a failed commit, from the else-branch answers to `validation().reads`: whether a cached
   * or guessed read had gone stale (the body must run again on fresh data), or only a read fetched
   * in this transaction changed (a real conflict), or every read is still current. Refreshes the
   * cache either way.
   */
  verdict(results: readonly ReadResult[], revision: string): ReadVerdict {
    let verdict: ReadVerdict = 'current';
    [...this.recorded.values()].forEach((r, i) => {
      const fresh = results[i];
      this.cache?.remember(r.req, fresh, revision);
      if (sameResult(r.result, fresh)) return;
      if (r.origin !== 'fetched') verdict = 'stale-guess';
      else if (verdict === 'current') verdict = 'changed';
    });
    return verdict;
  }

  private read(req: ReadRequest): Promise<ReadResult> {
    const id = idOf(req);
    const seen = this.recorded.get(id);
    if (seen !== undefined) return Promise.resolve(seen.result);
    const answer = this.fromCache(req);
    if (answer !== undefined) {
      this.recorded.set(id, answer);
      return Promise.resolve(answer.result);
    }
    return new Promise<ReadResult>((resolve, reject) => {
      this.pending.push({ req, resolve, reject });
      // setImmediate, not a microtask: reads started by promise chains of the same wave still join.
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private fromCache(req: ReadRequest): RecordedRead | undefined {
    if (this.cache === undefined) return undefined;
    if (req.kind === 'key') {
      const hit = this.cache.key(req.key);
      if (hit !== undefined) return { req, result: hit.raw, revision: hit.raw?.modRevision ?? '0', origin: 'cache' };
      return this.guessHandlesAbsent && req.key.startsWith(HANDLE_PREFIX) ? { req, result: undefined, revision: '0', origin: 'guess' } : undefined;
    }
    const hit = this.cache.range(req.start, req.end);
    return hit === undefined ? undefined : { req, result: [...hit.kvs], revision: hit.revision, origin: 'cache' };
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    // A key or range asked twice in one wave (a stamp and the value it stamps) is sent once.
    const sent = new Map<string, number>();
    const requests: ReadRequest[] = [];
    for (const p of batch) {
      const id = idOf(p.req);
      if (!sent.has(id)) {
        sent.set(id, requests.length);
        requests.push(p.req);
      }
    }
    try {
      const out = await pinnedRead(() => this.readMany(requests, this.pinned));
      this.pinned ??= out.revision;
      requests.forEach((req, i) => {
        const result = out.results[i];
        this.cache?.remember(req, result, out.revision);
        const id = idOf(req);
        if (!this.recorded.has(id)) this.recorded.set(id, { req, result, revision: out.revision, origin: 'fetched' });
      });
      for (const p of batch) p.resolve(this.recorded.get(idOf(p.req))?.result);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

const idOf = (req: ReadRequest): string => (req.kind === 'key' ? `k${req.key}` : `r${rangeId(req.start, req.end)}`);

function sameResult(a: ReadResult, b: ReadResult): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) {
    if (Array.isArray(a) || Array.isArray(b)) return false;
    // A key's mod revision names one version of it (a re-created key has a new one too).
    return a?.modRevision === b?.modRevision;
  }
  return (
    a.length === b.length &&
    a.every((kv, i) => {
      const other: RawKv | undefined = b[i];
      return kv.key === other?.key && kv.modRevision === other.modRevision;
    })
  );
}

/** A snapshot compacted away mid-transaction is a lost race: the caller re-reads and retries. */
async function pinnedRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof WatchExpiredError) throw new ConflictError('transaction snapshot', 'transaction snapshot was compacted; retry', { cause: err });
    throw err;
  }
}
