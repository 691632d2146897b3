import { ConflictError, ValidationError, type DatastoreTx, type TxWrite } from '@ipamkit/models';
import type { EtcdKv, TxnCompare, TxnOp } from './etcd-kv.js';
import { checkRevision } from './etcd-kv.js';
import { affinityKind, blockKind, handleKind, type EtcdKind } from './etcd-layout.js';
import { compareFailure, isSoftDeleted } from './etcd-store.js';

/** Rounds of "a create met a soft-deleted row: compare on its revision instead" before giving up. */
const SOFT_DELETED_ROUNDS = 3;

interface PlannedWrite {
  readonly kind: EtcdKind<unknown, unknown>;
  readonly id: unknown;
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
    return { kind, id, compare: { key, expect: 'absent' }, op: { op: 'put', key, value: kind.encode(value) } };
  }
  const compare: TxnCompare = { key, expect: 'revision', revision: checkRevision(revision ?? '', kind.describe(id)) };
  return { kind, id, compare, op: write.op === 'delete' ? { op: 'delete', key } : { op: 'put', key, value: kind.encode(value) } };
}

/**
 * Commits buffered writes as ONE etcd transaction whose compares are the writes' preconditions
 * (create: create revision 0; update/delete: mod revision). All or nothing; on failure the first
 * failed precondition decides the error, read from the else branch of the same transaction.
 */
export async function commitWrites(kv: EtcdKv, writes: readonly TxWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const planned = writes.map(plan);
  const keys = new Set(planned.map((p) => p.op.key));
  if (keys.size !== planned.length) throw new ValidationError('a transaction may write each object at most once');
  for (let round = 0; round < SOFT_DELETED_ROUNDS; round++) {
    const out = await kv.commit(
      planned.map((p) => p.compare),
      planned.map((p) => p.op),
      'transaction',
    );
    if (out.succeeded) return;
    let retry = false;
    for (const [i, p] of planned.entries()) {
      const current = out.current[i];
      const c = p.compare;
      const holds = c.expect === 'absent' ? current === undefined : current?.modRevision === c.revision;
      if (holds) continue;
      if (p.op.op === 'put' && c.expect === 'absent' && current !== undefined && isSoftDeleted(p.kind, current)) {
        // A soft-deleted row is absent to readers: replace it, still by CAS.
        p.compare = { key: c.key, expect: 'revision', revision: current.modRevision };
        retry = true;
        continue;
      }
      throw compareFailure(p.kind, p.id, c, current);
    }
    if (!retry) break;
  }
  throw new ConflictError('transaction');
}

/** The body's reads: the stores' readers over a snapshot (see snapshot-kv.ts). */
export type TxReads = Omit<DatastoreTx, 'write'>;

export async function runTransaction<R>(kv: EtcdKv, reads: TxReads, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  const writes: TxWrite[] = [];
  let open = true;
  const tx: DatastoreTx = {
    ...reads,
    write(write: TxWrite): void {
      if (!open) throw new ValidationError('transaction already committed: write() after the body returned');
      writes.push(write);
    },
  };
  let result: R;
  try {
    result = await body(tx);
  } finally {
    // A body that threw commits nothing; either way, later writes are a bug in the caller.
    open = false;
  }
  await commitWrites(kv, writes);
  return result;
}
