import type { IPVersion } from '@ipamkit/models';

/** Every kind of object a row engine stores; one table (SQLite) or map (memory) each. */
export type KindName = 'ipPool' | 'ipReservation' | 'node' | 'namespace' | 'block' | 'affinity' | 'handle' | 'ipamConfig';

export const KIND_NAMES: readonly KindName[] = ['ipPool', 'ipReservation', 'node', 'namespace', 'block', 'affinity', 'handle', 'ipamConfig'];

/** The indexed columns of a row: what host-scoped and per-family listing filter on. */
export interface RowIndex {
  readonly ipVersion?: IPVersion;
  readonly host?: string;
  readonly type?: string;
}

export type RowFilter = RowIndex;

interface KindSpec {
  /** Whether `deleted: true` in the value marks the row as soft-deleted (design/calico-stored-formats.md#soft-delete). */
  readonly softDelete: boolean;
  readonly keyOf: (value: Record<string, unknown>) => string;
  readonly indexOf: (value: Record<string, unknown>) => RowIndex;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const ipVersionOf = (cidr: unknown): IPVersion => (str(cidr).includes(':') ? 6 : 4);
const byName: KindSpec = { softDelete: false, keyOf: (v) => str(v['name']), indexOf: () => ({}) };

export const KINDS: Readonly<Record<KindName, KindSpec>> = {
  ipPool: byName,
  ipReservation: byName,
  node: byName,
  namespace: byName,
  block: { softDelete: true, keyOf: (v) => str(v['cidr']), indexOf: (v) => ({ ipVersion: ipVersionOf(v['cidr']) }) },
  affinity: {
    softDelete: true,
    keyOf: (v) => affinityRowKey(str(v['type']), str(v['host']), str(v['cidr'])),
    indexOf: (v) => ({ ipVersion: ipVersionOf(v['cidr']), host: str(v['host']), type: str(v['type']) }),
  },
  handle: { softDelete: true, keyOf: (v) => str(v['handleId']), indexOf: () => ({}) },
  ipamConfig: { softDelete: false, keyOf: () => 'default', indexOf: () => ({}) },
};

/** The row key (and watch-event key) of an affinity: type and host are part of its identity. */
export function affinityRowKey(type: string, host: string, cidr: string): string {
  return `${type}/${host}/${cidr}`;
}

export function isSoftDeleted(kind: KindName, value: Record<string, unknown>): boolean {
  return KINDS[kind].softDelete && value['deleted'] === true;
}

/** `isSoftDeleted` for a stored row, without decoding its value when the engine already knows. */
export function isRowSoftDeleted(kind: KindName, row: { readonly value: Record<string, unknown>; readonly softDeleted?: boolean }): boolean {
  return row.softDeleted ?? isSoftDeleted(kind, row.value);
}

export function matchesFilter(index: RowIndex, filter: RowFilter): boolean {
  return (
    (filter.ipVersion === undefined || index.ipVersion === filter.ipVersion) &&
    (filter.host === undefined || index.host === filter.host) &&
    (filter.type === undefined || index.type === filter.type)
  );
}
