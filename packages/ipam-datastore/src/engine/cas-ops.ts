import { AlreadyExistsError, ConflictError, NotFoundError, ValidationError } from '@ipamkit/models';
import { isRowSoftDeleted, isSoftDeleted, KINDS, type KindName, type RowFilter } from './kinds.js';
import type { RowEngine, StoredRow } from './row-engine.js';
import { withoutStack } from '../without-stack.js';

// The compare-and-swap rules of design/calico-stored-formats.md#consistency, written once for every row engine. Each
// function runs inside an engine write (or read) and throws the models' errors.

/** What the CAS writes use of an engine (a transaction applies them through its TxRowMemo). */
export type CasEngine = Pick<RowEngine, 'getRow' | 'putRow' | 'removeRow' | 'bumpRevision'>;

/** What the readers use of an engine. */
export type ReadEngine = Pick<RowEngine, 'getRow' | 'listRows'>;

const identifier = (kind: KindName, key: string): string => `${kind} ${key}`;

export function parseRevision(kind: KindName, key: string, revision: string): bigint {
  if (!/^\d{1,20}$/.test(revision)) {
    throw new ValidationError(`invalid revision ${JSON.stringify(revision)} for ${identifier(kind, key)}: expected a decimal revision`);
  }
  return BigInt(revision);
}

/** The NotFoundError for `kind key`: what `getLive` throws. */
export function notFoundError(kind: KindName, key: string): NotFoundError {
  return new NotFoundError(identifier(kind, key));
}

/**
 * `notFoundError` without capturing a stack trace (`stack` is the header line only). For the
 * transaction readers and the IPAMConfig store: the core asks for objects that are routinely absent
 * (the 'default' IPAMConfig, a fresh handle) and catches the error, and capturing the stack of its
 * deep async call chain cost ~45 µs per error (design/ipam-datastore.md, "Copies and the decode
 * cache").
 */
export function stacklessNotFoundError(kind: KindName, key: string): NotFoundError {
  return withoutStack(() => notFoundError(kind, key));
}

/** A live row or the error `absent` builds: soft-deleted rows do not exist for readers. */
export function getLive(
  engine: Pick<RowEngine, 'getRow'>,
  kind: KindName,
  key: string,
  absent: (kind: KindName, key: string) => Error = notFoundError,
): StoredRow {
  const row = engine.getRow(kind, key);
  if (row === undefined || isRowSoftDeleted(kind, row)) throw absent(kind, key);
  return row;
}

export function listLive(engine: Pick<RowEngine, 'listRows'>, kind: KindName, filter: RowFilter = {}): StoredRow[] {
  return engine.listRows(kind, filter);
}

/**
 * Creates `value`; a soft-deleted row under the same key is replaced, as if its delete had
 * finished. `owned`: nothing but the engine references `value` (see RowEngine.putRow).
 */
export function createRow(engine: CasEngine, kind: KindName, value: Record<string, unknown>, owned = false): StoredRow {
  const key = KINDS[kind].keyOf(value);
  const existing = engine.getRow(kind, key);
  if (existing !== undefined && !isRowSoftDeleted(kind, existing)) throw new AlreadyExistsError(identifier(kind, key));
  const row = { key, revision: engine.bumpRevision(), value };
  engine.putRow(kind, row, owned, isSoftDeleted(kind, value) ? undefined : 'added');
  return row;
}

/**
 * CAS update at `revision`. Writing `deleted: true` is a soft delete: the row stays but every
 * reader hides it and watchers see `deleted`.
 */
export function updateRow(engine: CasEngine, kind: KindName, value: Record<string, unknown>, revision: string, owned = false): StoredRow {
  const key = KINDS[kind].keyOf(value);
  const expected = parseRevision(kind, key, revision);
  const existing = getLive(engine, kind, key);
  if (existing.revision !== expected) throw new ConflictError(identifier(kind, key));
  const row = { key, revision: engine.bumpRevision(), value };
  // A soft delete's entry carries the row's last live value.
  engine.putRow(kind, row, owned, isSoftDeleted(kind, value) ? 'deleted' : 'modified');
  return row;
}

/** Compare-and-delete at `revision`; unconditional when it is absent. */
export function deleteRow(engine: CasEngine, kind: KindName, key: string, revision?: string): void {
  const expected = revision === undefined ? undefined : parseRevision(kind, key, revision);
  const existing = getLive(engine, kind, key);
  if (expected !== undefined && existing.revision !== expected) throw new ConflictError(identifier(kind, key));
  // The engine logs the row's last value itself (SQLite copies the stored text without decoding it).
  engine.removeRow(kind, key, engine.bumpRevision());
}
