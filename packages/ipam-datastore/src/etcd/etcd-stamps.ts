import type { StampTarget, TxStamps } from '@ipamkit/models';
import type { RawKv } from './etcd-kv.js';
import { POOL_PREFIX, RESERVATION_PREFIX, affinityRanges, configKind, nodeKind } from './etcd-layout.js';
import type { TransactionKv } from './transaction-kv.js';

/** A key's version: its mod revision names one version of it; `-` for an absent key. */
const keyStamp = (raw: RawKv | undefined): string => (raw === undefined ? '-' : raw.modRevision);

/** A range's version: every key in it with its mod revision (a deleted or new key changes it too). */
const rangeStamp = (kvs: readonly RawKv[]): string => kvs.map((kv) => `${kv.key}@${kv.modRevision}`).join(',');

/**
 * Version stamps inside an etcd transaction (design/ipam-datastore.md, "Version stamps"): the raw
 * key or range read the matching list or get makes, through the same transaction view, so a stamp
 * is answered from the transaction read cache like that read (no decoding, no copies) and proved
 * at commit with the body's other reads: a cached range that changed fails the commit with
 * ConflictError and refreshes the cache. A stamp and the read it names, started in the same turn,
 * are one request and one answer.
 */
export function etcdStamps(view: TransactionKv): TxStamps {
  const range = async (start: string, end?: string): Promise<string> => rangeStamp((await view.range(start, end)).kvs);
  return {
    get: async (target: StampTarget) => {
      switch (target.kind) {
        case 'ipPools':
          return await range(POOL_PREFIX);
        case 'ipReservations':
          return await range(RESERVATION_PREFIX);
        case 'ipamConfig':
          return keyStamp(await view.get(configKind.key('default')));
        case 'node':
          return keyStamp(await view.get(nodeKind.key(target.name)));
        case 'affinities': {
          const parts = await Promise.all(affinityRanges(target).map((r) => range(r.start, r.end)));
          return parts.join('|');
        }
      }
    },
  };
}
