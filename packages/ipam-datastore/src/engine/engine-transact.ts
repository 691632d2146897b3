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
import type { RowEngine } from './row-engine.js';
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

/**
 * Runs `body` inside one write transaction (SQLite: one BEGIN IMMEDIATE … COMMIT) while holding
 * the datastore's mutex and the file's writer mutex (`exclusiveWrite`); reads see that
 * transaction's state, writes are buffered and applied in order at the end, and any failure rolls
 * all of them back.
 */
export function engineTransact<R>(runner: EngineRunner, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  return runner.exclusiveWrite(async () => {
    const writes: PreparedWrite[] = [];
    // A missing object is an answer inside a transaction (the core catches it): no stack trace.
    const absent = stacklessNotFoundError;
    // The rows the body reads are remembered, so the CAS checks of its writes need not read them again.
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
      stamps: engineStamps(runner, read),
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
    runner.guard(() => runner.engine.beginWrite());
    try {
      const result = await body(tx);
      open = false;
      runner.guard(() => {
        for (const w of writes) apply(memo.applying, w);
      });
      runner.guard(() => runner.engine.commit());
      return result;
    } catch (err) {
      open = false;
      runner.guard(() => runner.engine.rollback());
      throw err;
    }
  });
}
