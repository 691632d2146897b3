import { ConflictError, ValidationError, WatchExpiredError, type DatastoreTx, type TransactOptions, type TxWrite } from '@ipamkit/models';
import type { EtcdKv, ReadRequest, ReadResult, TxnCompare, TxnOp } from './etcd-kv.js';
import { checkRevision } from './etcd-kv.js';
import { affinityKind, blockKind, handleKind, type EtcdKind } from './etcd-layout.js';
import { compareFailure, isSoftDeleted } from './etcd-store.js';
import { TransactionKv, UnvalidatableReadsError } from './transaction-kv.js';

/** Rounds of "a create met a soft-deleted row: compare on its revision instead" before giving up. */
const SOFT_DELETED_ROUNDS = 3;

interface PlannedWrite {
  readonly kind: EtcdKind<unknown, unknown>;
  readonly id: unknown;
  /** The value written (without revision and uid), for the decoded memo. */
  readonly value: unknown;
  compare: TxnCompare;
  readonly op: TxnOp;
}

function kindOf(write: TxWrite): EtcdKind<unknown, unknown> {
  const kinds = { block: blockKind, affinity: affinityKind, handle: handleKind } as const;
  return kinds[write.kind];
}

function plan(write: TxWrite): PlannedWrite {
  const kind = kindOf(write);
  const { revision, uid: _uid, ...value } = write.value as { revision?: string; uid?: string };
  const id = kind.idOf(value);
  const key = kind.key(id);
  if (write.op === 'create') {
    return { kind, id, value, compare: { key, expect: 'absent' }, op: { op: 'put', key, value: kind.encode(value) } };
  }
  const compare: TxnCompare = { key, expect: 'revision', revision: checkRevision(revision ?? '', kind.describe(id)) };
  return { kind, id, value, compare, op: write.op === 'delete' ? { op: 'delete', key } : { op: 'put', key, value: kind.encode(value) } };
}

/** Two compares that hold in exactly the same states. */
function sameCompare(a: TxnCompare, b: TxnCompare): boolean {
  if (a.key !== b.key || a.expect !== b.expect) return false;
  if (a.expect === 'absent' || b.expect === 'absent') return true;
  if (a.revision !== b.revision) return false;
  return a.expect !== 'unchanged-since' || b.expect !== 'unchanged-since' || a.end === b.end;
}

/** What a commit attempt came to: committed, or the body read too much to validate (run it again without the cache). */
type CommitOutcome = 'committed' | 'uncached';

/** etcd refuses transactions of more than 128 compares by default; stay well below. */
const MAX_COMPARES = 100;

/**
 * Commits buffered writes as ONE etcd transaction whose compares are the writes' preconditions
 * (create: create revision 0; update/delete: mod revision) and, when the body used the cache, the
 * proof that every read of the body is still current. All or nothing; on failure one read of the
 * body's reads and the written keys at the failed commit's revision says why: a stale cached read
 * (ConflictError; the cache is refreshed from the answer), else the first failed precondition,
 * which decides the error, else a read that changed (ConflictError).
 */
export async function commitWrites(kv: EtcdKv, writes: readonly TxWrite[], view?: TransactionKv): Promise<CommitOutcome> {
  let validation: { compares: TxnCompare[]; reads: ReadRequest[] };
  try {
    validation = view?.validation() ?? { compares: [], reads: [] };
  } catch (err) {
    if (err instanceof UnvalidatableReadsError) return 'uncached';
    throw err;
  }
  if (writes.length === 0 && validation.compares.length === 0) return 'committed';
  if (validation.compares.length + writes.length > MAX_COMPARES) return 'uncached';
  const planned = writes.map(plan);
  const keys = new Set(planned.map((p) => p.op.key));
  if (keys.size !== planned.length) throw new ValidationError('a transaction may write each object at most once');
  // No else branch: a failed commit is followed by one read of the body's reads and the written
  // keys at the failed commit's revision, the answers an else branch would have given. etcd parses
  // and logs a transaction's else branch even when it never runs it, about 60 µs of its CPU per
  // read per commit (design/ipam-datastore.md, "Allocation cost on etcd: the seventh round (2026-12-02)").
  const whyReads = [...validation.reads];
  const writeReadAt = planned.map((p) => {
    const at = whyReads.findIndex((r) => r.kind === 'key' && r.key === p.op.key);
    return at >= 0 ? at : whyReads.push({ kind: 'key', key: p.op.key }) - 1;
  });
  for (let round = 0; round < SOFT_DELETED_ROUNDS; round++) {
    const writeCompares = planned.map((p) => p.compare);
    const out = await kv.txn({
      compares: [...validation.compares.filter((c) => !writeCompares.some((w) => sameCompare(c, w))), ...writeCompares],
      ops: planned.map((p) => p.op),
      elseReads: [],
      identifier: 'transaction',
    });
    if (out.succeeded) {
      const created = new Set(planned.filter((p) => p.compare.expect === 'absent').map((p) => p.op.key));
      kv.txCache?.committed(
        planned.map((p) => p.op),
        out.revision,
        (key) => (created.has(key) ? out.revision : view?.createRevisionOf(key)),
      );
      // What was just written is what the next read of it decodes to (the codec round-trips it).
      for (const p of planned) if (p.op.op === 'put') kv.memo.remember(p.op.key, out.revision, p.value);
      return 'committed';
    }
    const why = await readAtFailure(kv, whyReads, out.revision);
    if (why === 'compacted') throw new ConflictError('transaction', 'the transaction lost a race and its revision was compacted before it could tell why; retry');
    const reads = view === undefined || validation.reads.length === 0 ? 'current' : view.verdict(why.slice(0, validation.reads.length), out.revision);
    // The body ran on a cached read that had changed: a lost race like any other (the cache now
    // holds the new state, so the caller's retry runs on it without reading again).
    if (reads === 'stale-guess') throw new ConflictError('transaction', 'a value the transaction read from the cache had changed; retry');
    let retry = false;
    for (const [i, p] of planned.entries()) {
      const result = why[writeReadAt[i] ?? -1];
      const current = Array.isArray(result) ? undefined : result;
      const c = p.compare;
      const holds = c.expect === 'absent' ? current === undefined : current?.modRevision === (c.expect === 'revision' ? c.revision : undefined);
      if (holds) continue;
      if (p.op.op === 'put' && c.expect === 'absent' && current !== undefined && isSoftDeleted(p.kind, current)) {
        // A soft-deleted row is absent to readers: replace it, still by CAS.
        p.compare = { key: c.key, expect: 'revision', revision: current.modRevision };
        retry = true;
        continue;
      }
      throw compareFailure(p.kind, p.id, c, current);
    }
    // Every write's precondition held: a read of the body changed under it.
    if (!retry) break;
  }
  throw new ConflictError('transaction');
}

/**
 * The answers to `reads` at `revision`, a failed commit's: what it would have read in an else branch.
 * 'compacted' when that revision is gone already (a lost race all the same).
 */
async function readAtFailure(kv: EtcdKv, reads: readonly ReadRequest[], revision: string): Promise<ReadResult[] | 'compacted'> {
  try {
    return (await kv.readMany(reads, revision)).results;
  } catch (err) {
    if (err instanceof WatchExpiredError) return 'compacted';
    throw err;
  }
}

/**
 * After a body threw: whether a cached or guessed read it made was stale (one validation round trip,
 * which refreshes the cache), or its reads are too many to validate.
 */
async function readsAfterThrow(kv: EtcdKv, view: TransactionKv): Promise<'current' | 'stale' | 'uncached'> {
  let validation: { compares: TxnCompare[]; reads: ReadRequest[] };
  try {
    validation = view.validation();
  } catch (err) {
    if (err instanceof UnvalidatableReadsError) return 'uncached';
    throw err;
  }
  if (validation.compares.length === 0) return 'current';
  if (validation.compares.length > MAX_COMPARES) return 'uncached';
  const out = await kv.txn({ compares: validation.compares, ops: [], elseReads: validation.reads, identifier: 'transaction' });
  return !out.succeeded && view.verdict(out.elseResults, out.revision) === 'stale-guess' ? 'stale' : 'current';
}

/** The body's reads: the stores' readers over one transaction's key-value view. */
export type TxReads = Omit<DatastoreTx, 'write'>;

/**
 * Runs `body` and commits what it wrote. Steady state: the body's reads come from the cache and
 * the whole transaction is one etcd round trip. A cached read that turns out stale fails the
 * transaction with ConflictError, as a concurrent writer would (the caller's CAS retry then runs on
 * the refreshed cache); so does a body that threw after reading stale cached data, with its error
 * as the cause. A body that read too much to validate (committing or throwing) runs once more,
 * reading everything fresh. With `handlesExist`, unseen handles are read, not guessed absent.
 */
export async function runTransaction<R>(
  kv: EtcdKv,
  readsOver: (view: TransactionKv) => TxReads,
  body: (tx: DatastoreTx) => Promise<R>,
  options?: TransactOptions,
): Promise<R> {
  const cache = kv.txCache;
  let useCache = cache !== undefined;
  for (;;) {
    const view = new TransactionKv(kv, useCache ? cache : undefined, options?.handlesExist !== true);
    const writes: TxWrite[] = [];
    let open = true;
    const tx: DatastoreTx = {
      ...readsOver(view),
      write(write: TxWrite): void {
        if (!open) throw new ValidationError('transaction already committed: write() after the body returned');
        writes.push(write);
      },
    };
    let result: R;
    try {
      result = await body(tx);
    } catch (err) {
      // A body that threw commits nothing; if it threw on cached data gone stale, that is a lost race.
      open = false;
      const reads = useCache ? await readsAfterThrow(kv, view) : 'current';
      if (reads === 'stale') throw new ConflictError('transaction', 'the transaction failed on a value from the cache that had changed; retry', { cause: err });
      if (reads === 'uncached') {
        useCache = false;
        continue;
      }
      throw err;
    } finally {
      // Later writes are a bug in the caller.
      open = false;
    }
    if ((await commitWrites(kv, writes, view)) === 'committed') return result;
    // 'uncached': the body read too much to validate; run it once more without the cache.
    useCache = false;
  }
}
