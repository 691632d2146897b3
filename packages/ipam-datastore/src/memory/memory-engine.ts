import { copyValue } from '../engine/copy-value.js';
import { KIND_NAMES, KINDS, isSoftDeleted, matchesFilter, type KindName, type RowFilter } from '../engine/kinds.js';
import type { ChangeRecord, RowEngine, RowStamp, StampFilter, StoredRow } from '../engine/row-engine.js';

/**
 * A stored row as read: its value is copied on first use, so a CAS check that only compares the
 * revision (and the soft-delete flag) copies nothing. Stored rows are never changed in place, so a
 * late copy sees what the row held when it was read.
 */
class MemoryRow implements StoredRow {
  private copied: Record<string, unknown> | undefined;

  constructor(
    private readonly stored: StoredRow,
    readonly softDeleted: boolean,
  ) {}

  get key(): string {
    return this.stored.key;
  }

  get revision(): bigint {
    return this.stored.revision;
  }

  get value(): Record<string, unknown> {
    this.copied ??= copyValue(this.stored.value);
    return this.copied;
  }

  peek(): Readonly<Record<string, unknown>> {
    return this.stored.value;
  }
}

/**
 * Rows in maps, with an undo log so that a failed write (or transaction) leaves no trace. Values
 * are copied on the way in and out: callers never share objects with the store, and the store never
 * changes a value it holds, so a row and its change-log entry may share one copy.
 */
export class MemoryEngine implements RowEngine {
  private readonly tables = new Map<KindName, Map<string, StoredRow>>(KIND_NAMES.map((k) => [k, new Map()]));
  private revision = 0n;
  private changes: ChangeRecord[] = [];
  private compacted = 0n;
  private undo: (() => void)[] | undefined;
  private readonly listeners = new Set<() => void>();
  /** Each kind's keys in order, built on the first paged read and dropped when a key comes or goes. */
  private readonly sortedKeys = new Map<KindName, string[]>();

  /** `changeLogRetention`: how many change-log entries to keep for watches; older revisions expire. */
  constructor(private readonly options: { readonly changeLogRetention: number }) {}

  private table(kind: KindName): Map<string, StoredRow> {
    const t = this.tables.get(kind);
    if (t === undefined) throw new Error(`unknown kind ${kind}`);
    return t;
  }

  private record(step: () => void): void {
    if (this.undo === undefined) throw new Error('memory engine: write outside a transaction');
    this.undo.push(step);
  }

  beginRead(): void {
    // Reads are consistent already: the runner's mutex keeps writers out.
  }

  endRead(): void {
    // Nothing to release.
  }

  beginWrite(): void {
    this.undo = [];
  }

  commit(): void {
    const changed = this.undo !== undefined && this.undo.length > 0;
    this.undo = undefined;
    this.compact();
    if (changed) for (const l of [...this.listeners]) l();
  }

  rollback(): void {
    const steps = this.undo ?? [];
    this.undo = undefined;
    for (const step of steps.reverse()) step();
    this.sortedKeys.clear();
  }

  getRow(kind: KindName, key: string): StoredRow | undefined {
    const row = this.table(kind).get(key);
    return row === undefined ? undefined : new MemoryRow(row, isSoftDeleted(kind, row.value));
  }

  stampRows(kind: KindName, filter: StampFilter): RowStamp {
    const spec = KINDS[kind];
    const t = this.table(kind);
    const rows = filter.key === undefined ? [...t.values()].filter((r) => matchesFilter(spec.indexOf(r.value), filter)) : [t.get(filter.key)];
    let count = 0;
    let maxRevision = 0n;
    for (const r of rows) {
      if (r === undefined) continue;
      count += 1;
      if (r.revision > maxRevision) maxRevision = r.revision;
    }
    return { count, maxRevision };
  }

  listRows(kind: KindName, filter: RowFilter): StoredRow[] {
    const spec = KINDS[kind];
    return [...this.table(kind).values()]
      .filter((r) => !isSoftDeleted(kind, r.value) && matchesFilter(spec.indexOf(r.value), filter))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((r) => new MemoryRow(r, false));
  }

  listRowsPage(kind: KindName, filter: RowFilter, after: string | undefined, limit: number): StoredRow[] {
    const spec = KINDS[kind];
    const t = this.table(kind);
    const keys = this.keysInOrder(kind);
    let lo = 0;
    let hi = keys.length;
    while (after !== undefined && lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((keys[mid] ?? '') <= after) lo = mid + 1;
      else hi = mid;
    }
    const out: StoredRow[] = [];
    for (let i = lo; i < keys.length && out.length < limit; i += 1) {
      const r = t.get(keys[i] ?? '');
      if (r !== undefined && !isSoftDeleted(kind, r.value) && matchesFilter(spec.indexOf(r.value), filter)) out.push(new MemoryRow(r, false));
    }
    return out;
  }

  private keysInOrder(kind: KindName): string[] {
    const keys = this.sortedKeys.get(kind) ?? [...this.table(kind).keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.sortedKeys.set(kind, keys);
    return keys;
  }

  putRow(kind: KindName, row: StoredRow, _owned?: boolean, log?: ChangeRecord['type']): void {
    const t = this.table(kind);
    const before = t.get(row.key);
    if (log === 'deleted' && before !== undefined) this.logRemoval(kind, before, row.revision);
    if (before === undefined) this.sortedKeys.delete(kind);
    this.record(() => (before === undefined ? t.delete(row.key) : t.set(row.key, before)));
    const stored: StoredRow = { key: row.key, revision: row.revision, value: copyValue(row.value) };
    t.set(row.key, stored);
    // The change-log entry shares the stored copy: neither is ever changed, both are copied on the way out.
    if (log === 'added' || log === 'modified') this.logChange({ revision: row.revision, kind, key: row.key, type: log, value: stored.value, valueRevision: row.revision });
  }

  removeRow(kind: KindName, key: string, revision: bigint): void {
    const t = this.table(kind);
    const before = t.get(key);
    if (before === undefined) return;
    this.logRemoval(kind, before, revision);
    this.sortedKeys.delete(kind);
    this.record(() => t.set(key, before));
    t.delete(key);
  }

  bumpRevision(): bigint {
    const before = this.revision;
    this.record(() => (this.revision = before));
    this.revision += 1n;
    return this.revision;
  }

  currentRevision(): bigint {
    return this.revision;
  }

  /** A `deleted` entry for `before`, sharing its stored value (never changed, copied on the way out). */
  private logRemoval(kind: KindName, before: StoredRow, revision: bigint): void {
    this.logChange({ revision, kind, key: before.key, type: 'deleted', value: before.value, valueRevision: before.revision });
  }

  private logChange(change: ChangeRecord): void {
    this.record(() => this.changes.pop());
    this.changes.push(change);
  }

  changesSince(kind: KindName, after: bigint, limit: number): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    // Revisions are increasing; the binary search keeps long logs cheap to resume.
    let lo = 0;
    let hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.changes[mid]?.revision ?? 0n) <= after) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.changes.length && out.length < limit; i++) {
      const c = this.changes[i];
      if (c?.kind === kind) out.push({ ...c, value: copyValue(c.value) });
    }
    return out;
  }

  compactedRevision(): bigint {
    return this.compacted;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  translateError(err: unknown): unknown {
    return err;
  }

  close(): void {
    for (const l of [...this.listeners]) l();
    this.listeners.clear();
  }

  /** Drops the oldest change-log entries beyond the retention; runs after commit (not undoable). */
  private compact(): void {
    const excess = this.changes.length - this.options.changeLogRetention;
    if (excess <= 0) return;
    this.compacted = this.changes[excess - 1]?.revision ?? this.compacted;
    this.changes = this.changes.slice(excess);
  }
}
