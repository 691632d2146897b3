import type { StampTarget, TxStamps } from '@ipamkit/models';
import type { KindName } from './kinds.js';
import type { RowStamp, StampFilter } from './row-engine.js';

/** The rows a stamp target covers. */
function rowsOf(target: StampTarget): { kind: KindName; filter: StampFilter } {
  switch (target.kind) {
    case 'ipPools':
      return { kind: 'ipPool', filter: {} };
    case 'ipReservations':
      return { kind: 'ipReservation', filter: {} };
    case 'ipamConfig':
      return { kind: 'ipamConfig', filter: { key: 'default' } };
    case 'node':
      return { kind: 'node', filter: { key: target.name } };
    case 'affinities':
      return { kind: 'affinity', filter: { host: target.host, type: target.type, ipVersion: target.ipVersion } };
  }
}

/**
 * Version stamps inside a memory or SQLite transaction (design/ipam-datastore.md, "Version
 * stamps"): a set of rows is named by its count and highest revision. Every write stamps its row
 * with a revision above every earlier one, so if both are as before, every row now present was
 * already present at that revision (none was written since) and none is missing (same count).
 * A stamp is one of the body's reads (`stampRows`: the transaction's TxRowMemo), so nothing it
 * stamped can have changed when the transaction commits.
 */
export function engineStamps(stampRows: (kind: KindName, filter: StampFilter) => RowStamp, read: <T>(fn: () => T) => Promise<T>): TxStamps {
  return {
    get: (target) =>
      read(() => {
        const { kind, filter } = rowsOf(target);
        const stamp = stampRows(kind, filter);
        return `${String(stamp.count)}:${String(stamp.maxRevision)}`;
      }),
  };
}
