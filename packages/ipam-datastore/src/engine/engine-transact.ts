import type {
  AllocationBlock,
  BlockAffinity,
  DatastoreTx,
  IPAMConfig,
  IPAMHandle,
  IPPool,
  IPReservation,
  Node,
  TxWrite,
} from '@ipamkit/models';
import { type CasEngine, createRow, deleteRow, stacklessNotFoundError, updateRow } from './cas-ops.js';
import type { EngineRunner } from './engine-runner.js';
import { engineStamps } from './engine-stamps.js';
import { affinityFilter, affinityKeyOf, kindReader } from './engine-stores.js';
import { KINDS, type KindName } from './kinds.js';
import { TxRowMemo } from './tx-row-memo.js';
import { copyValue } from './copy-value.js';
import type { OptimisticEngine, RowEngine } from './row-engine.js';
import { checkedValue } from './validate-value.js';

const KIND_OF: Record<TxWrite['kind'], KindName> = { block: 'block', affinity: 'affinity', handle: 'handle' };

/** Checked when the body buffers it, so a malformed write fails the body, not the commit. */
interface PreparedWrite {
  readonly op: TxWrite['op'];
  readonly kind: KindName;
  readonly value: Record<string, unknown>;
  readonly revision: string;
}

function prepare(engine: RowEngine, write: TxWrite): PreparedWrite {
  const kind = KIND_OF[write.kind];
  const checked = checkedValue(kind, write.value);
  // One private copy, made as the engine will keep it (design/ipam-datastore.md, "Allocation cost").
  const value = engine.ownedCopy?.(kind, checked) ?? copyValue(checked);
  const revision = 'revision' in write.value ? write.value.revision : '';
  return { op: write.op, kind, value, revision };
}

/** `w.value` is the copy `prepare` made and nothing else references: the engine owns it. */
function apply(engine: CasEngine, w: PreparedWrite): void {
  if (w.op === 'create') createRow(engine, w.kind, w.value, true);
  else if (w.op === 'update') updateRow(engine, w.kind, w.value, w.revision, true);
  else deleteRow(engine, w.kind, KINDS[w.kind].keyOf(w.value), w.revision);
}

/** One run of a body: its view, its buffered writes and what it read. */
interface BodyRun {
  readonly tx: DatastoreTx;
  readonly writes: readonly PreparedWrite[];
  readonly memo: TxRowMemo;
  /** Ends the body: later writes throw. */
  close(): void;
}

function bodyRun(runner: EngineRunner): BodyRun {
  const writes: PreparedWrite[] = [];
  // A missing object is an answer inside a transaction (the core catches it): no stack trace.
  const absent = stacklessNotFoundError;
  // The rows the body reads are remembered, so the CAS checks of its writes need not read them
  // again, and an optimistic transaction can tell whether any of them changed.
  const memo = new TxRowMemo(runner.engine);
  const source = { engine: memo.reading };
  const blocks = kindReader<AllocationBlock>(source, 'block', absent);
  const affinities = kindReader<BlockAffinity>(source, 'affinity', absent);
  const handles = kindReader<IPAMHandle>(source, 'handle', absent);
  const config = kindReader<IPAMConfig>(source, 'ipamConfig', absent);
  const pools = kindReader<IPPool>(source, 'ipPool');
  const reservations = kindReader<IPReservation>(source, 'ipReservation');
  const nodes = kindReader<Node>(source, 'node', absent);
  const read = <T>(fn: () => T): Promise<T> => new Promise((resolve) => resolve(runner.guard(fn)));
  let open = true;
  const tx: DatastoreTx = {
    stamps: engineStamps((kind, filter) => memo.stamp(kind, filter), read),
    blocks: {
      get: (cidr) => read(() => blocks.get(cidr)),
      list: (o = {}) => read(() => blocks.list(o.ipVersion === undefined ? {} : { ipVersion: o.ipVersion })),
    },
    affinities: { get: (k) => read(() => affinities.get(affinityKeyOf(k))), list: (o = {}) => read(() => affinities.list(affinityFilter(o))) },
    handles: { get: (id) => read(() => handles.get(id)) },
    ipamConfig: { get: () => read(() => config.get('default')) },
    ipPools: { list: () => read(() => pools.list()) },
    ipReservations: { list: () => read(() => reservations.list()) },
    nodes: { get: (name) => read(() => nodes.get(name)) },
    write: (w) => {
      if (!open) throw new Error('transaction already finished: write() called after the body returned');
      writes.push(prepare(runner.engine, w));
    },
  };
  return {
    tx,
    writes,
    memo,
    close: () => {
      open = false;
    },
  };
}

/** Applies a run's writes through its memo and commits; any failure rolls all of them back. Inside `beginWrite`. */
function applyAndCommit(runner: EngineRunner, run: BodyRun): void {
  runner.guard(() => {
    for (const w of run.writes) apply(run.memo.applying, w);
  });
  runner.guard(() => runner.engine.commit());
}

/** Today's transaction: the body runs inside the write transaction, holding the write lock throughout. */
async function lockedRun<R>(runner: EngineRunner, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  const run = bodyRun(runner);
  runner.guard(() => runner.engine.beginWrite());
  try {
    const result = await body(run.tx);
    run.close();
    applyAndCommit(runner, run);
    return result;
  } catch (err) {
    run.close();
    runner.guard(() => runner.engine.rollback());
    throw err;
  }
}

/** A validation found a row the body read changed by another writer: nothing was written. */
const STALE = Symbol('stale reads');

/**
 * An optimistic run (design/ipam-datastore.md, "Optimistic transactions"): the body reads outside
 * any transaction and lock, each read seeing the state of `since` or a later one, and buffers its
 * writes. Its outcome stands only if no row it read (by key, present or absent, or through a list
 * or a stamp) was written after `since`: then every read saw the state of `since`. A body with
 * writes is validated under the write lock, just before they apply; one that wrote nothing, or
 * threw, is validated without it, its outcome being that of the state of `since`, a state of the
 * store after the transaction began.
 */
async function optimisticRun<R>(runner: EngineRunner, optimistic: OptimisticEngine, body: (tx: DatastoreTx) => Promise<R>): Promise<R | typeof STALE> {
  const { engine } = runner;
  const run = bodyRun(runner);
  const since = runner.guard(() => optimistic.beginOptimisticReads());
  let outcome: { readonly result: R } | { readonly err: unknown };
  try {
    outcome = { result: await body(run.tx) };
  } catch (err) {
    outcome = { err };
  } finally {
    run.close();
    runner.guard(() => optimistic.endOptimisticReads());
  }
  const stale = (): boolean => {
    const changes = runner.guard(() => optimistic.changedSince(since));
    return changes === undefined || run.memo.readsChangedBy(changes);
  };
  if ('err' in outcome || run.writes.length === 0) {
    if (stale()) return STALE;
    if ('err' in outcome) throw outcome.err;
    return outcome.result;
  }
  runner.guard(() => engine.beginWrite());
  try {
    if (stale()) {
      runner.guard(() => engine.rollback());
      return STALE;
    }
    applyAndCommit(runner, run);
    return outcome.result;
  } catch (err) {
    runner.guard(() => engine.rollback());
    throw err;
  }
}

/**
 * Runs `body` as one transaction while holding the datastore's mutex and the file's writer mutex
 * (`exclusiveWrite`): reads see one consistent state, writes are buffered and applied in order at
 * the end, and any failure rolls all of them back. An optimistic engine (SQLite) runs the body
 * without the write lock first and, when another writer changed what it read, once more holding
 * the lock throughout, which cannot go stale: at most two runs. Otherwise (memory) it runs once,
 * holding the lock.
 */
export function engineTransact<R>(runner: EngineRunner, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  return runner.exclusiveWrite(async () => {
    const optimistic = runner.engine.optimistic;
    if (optimistic !== undefined) {
      const outcome = await optimisticRun(runner, optimistic, body);
      if (outcome !== STALE) return outcome;
    }
    return await lockedRun(runner, body);
  });
}
