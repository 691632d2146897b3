import type {
  AffinityKey,
  AffinityStore,
  AllocationBlock,
  BlockAffinity,
  BlockPageOptions,
  BlockStore,
  HandleStore,
  IPAMConfig,
  IPAMHandle,
  IpamConfigStore,
  ResourceStore,
  Versioned,
} from '@ipamkit/models';
import { definedFields } from '@ipamkit/models';
import { pageLimit } from '../page-limit.js';
import { blockOrdinalsOf } from './block-ordinals.js';
import { createRow, deleteRow, getLive, listLive, type ReadEngine, stacklessNotFoundError, updateRow } from './cas-ops.js';
import { affinityRowKey, type KindName, type RowFilter } from './kinds.js';
import type { EngineRunner } from './engine-runner.js';
import type { StoredRow } from './row-engine.js';
import { storableValue } from './validate-value.js';
import { watchKind } from './watch-stream.js';

export function versioned<T>(row: StoredRow): Versioned<T> {
  return { ...row.value, revision: String(row.revision) } as unknown as Versioned<T>;
}

/** As `versioned`, for a row whose value is the reader's own (`StoredRow.ownValue`): no copy. */
function ownVersioned<T>(row: StoredRow): Versioned<T> {
  const value = row.value;
  value['revision'] = String(row.revision);
  return value as unknown as Versioned<T>;
}

/** A read row as its reader gets it: the row's own value with the revision added, else a copy. */
function readerVersioned<T>(row: StoredRow): Versioned<T> {
  return row.ownValue === true ? ownVersioned<T>(row) : versioned<T>(row);
}

/** The read half shared by the stores and the transaction view. */
export interface KindReader<T> {
  get(key: string): Versioned<T>;
  list(filter?: RowFilter): Versioned<T>[];
}

/**
 * `absent` builds the error `get` throws for a missing row (default: getLive's NotFoundError).
 * `source.engine` is read at each call: a runner's engine, or a transaction's recording view.
 */
export function kindReader<T>(
  source: { readonly engine: ReadEngine },
  kind: KindName,
  absent?: (kind: KindName, key: string) => Error,
): KindReader<T> {
  return {
    get: (key) => readerVersioned<T>(getLive(source.engine, kind, key, absent)),
    list: (filter = {}) => listLive(source.engine, kind, filter).map((r) => readerVersioned<T>(r)),
  };
}

/** Create / get / list / update / delete / watch for one kind, keyed by `keyOf`. */
function kindStore<T extends object>(runner: EngineRunner, kind: KindName, absent?: (kind: KindName, key: string) => Error) {
  const reader = kindReader<T>(runner, kind, absent);
  const revisionOf = (v: unknown): string => {
    const rev = (v as { revision?: unknown }).revision;
    return typeof rev === 'string' ? rev : '';
  };
  return {
    get: (key: string) => runner.read(() => reader.get(key)),
    list: (filter?: RowFilter) => runner.read(() => reader.list(filter)),
    listWithRevision: () => runner.read(() => ({ items: reader.list(), revision: String(runner.engine.currentRevision()) })),
    watch: (options?: Parameters<typeof watchKind>[2]) => watchKind<T>(runner, kind, options),
    // Validated before the write starts, so bad input never opens a transaction.
    create: async (obj: T) => {
      const value = storableValue(kind, obj);
      return await runner.write(() => versioned<T>(createRow(runner.engine, kind, value)));
    },
    update: async (obj: Versioned<T>) => {
      const value = storableValue(kind, obj);
      return await runner.write(() => versioned<T>(updateRow(runner.engine, kind, value, revisionOf(obj))));
    },
    deleteKey: (key: string, revision?: string) => runner.write(() => deleteRow(runner.engine, kind, key, revision)),
  };
}

export function resourceStore<T extends { name: string }>(runner: EngineRunner, kind: KindName): ResourceStore<T> {
  const s = kindStore<T>(runner, kind);
  return {
    get: s.get,
    list: () => s.list(),
    listWithRevision: s.listWithRevision,
    watch: s.watch,
    create: s.create,
    update: s.update,
    delete: (name, revision) => s.deleteKey(name, revision),
  };
}

/** One page of live blocks after `options.continue`, each row read by `read`. */
async function blockPage<I>(runner: EngineRunner, options: BlockPageOptions, read: (row: StoredRow) => I): Promise<{ items: I[]; continue?: string }> {
  const limit = pageLimit(options.limit);
  const filter = options.ipVersion === undefined ? {} : { ipVersion: options.ipVersion };
  return await runner.read(() => {
    const rows = runner.engine.listRowsPage('block', filter, options.continue, limit);
    const items = rows.map(read);
    const last = rows.at(-1);
    return rows.length < limit || last === undefined ? { items } : { items, continue: last.key };
  });
}

export function blockStore(runner: EngineRunner): BlockStore {
  const s = kindStore<AllocationBlock>(runner, 'block');
  return {
    ...s,
    list: (options = {}) => s.list(options.ipVersion === undefined ? {} : { ipVersion: options.ipVersion }),
    // The continue token is the last key of the page: the next page starts after it (design/ipam-datastore.md, "Paged block reads").
    listPage: (options) => blockPage(runner, options, (r) => (r.ownValue === true ? ownVersioned<AllocationBlock>(r) : versioned<AllocationBlock>(r))),
    listOrdinalsPage: (options) => blockPage(runner, options, (r) => r.ordinals?.() ?? blockOrdinalsOf(r.key, r.peek?.() ?? r.value)),
    delete: (block) => s.deleteKey(block.cidr, block.revision),
  };
}

export function affinityFilter(options: { host?: string; type?: string; ipVersion?: 4 | 6 }): RowFilter {
  return definedFields({ host: options.host, type: options.type, ipVersion: options.ipVersion });
}

export const affinityKeyOf = (k: AffinityKey): string => affinityRowKey(k.type, k.host, k.cidr);

export function affinityStore(runner: EngineRunner): AffinityStore {
  const s = kindStore<BlockAffinity>(runner, 'affinity');
  return {
    ...s,
    get: (key) => s.get(affinityKeyOf(key)),
    list: (options = {}) => s.list(affinityFilter(options)),
    delete: (a) => s.deleteKey(affinityKeyOf(a), a.revision),
  };
}

export function handleStore(runner: EngineRunner): HandleStore {
  const s = kindStore<IPAMHandle>(runner, 'handle');
  return { ...s, list: () => s.list(), delete: (h) => s.deleteKey(h.handleId, h.revision) };
}

export function ipamConfigStore(runner: EngineRunner): IpamConfigStore {
  // No IPAMConfig is the usual state (defaults apply), read on every release: no stack trace.
  const s = kindStore<IPAMConfig>(runner, 'ipamConfig', stacklessNotFoundError);
  return {
    get: () => s.get('default'),
    create: s.create,
    update: s.update,
    delete: (revision) => s.deleteKey('default', revision),
  };
}
