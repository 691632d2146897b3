import { KIND_NAMES, KINDS, isSoftDeleted, matchesFilter, type KindName, type RowFilter } from '../engine/kinds.js';
import type { ChangeRecord, RowEngine, StoredRow } from '../engine/row-engine.js';

export interface MemoryEngineOptions {
  /** How many change-log entries to keep for watches; older revisions expire. */
  readonly changeLogRetention: number;
}

const copy = (row: StoredRow): StoredRow => ({ key: row.key, revision: row.revision, value: structuredClone(row.value) });

/**
 * Rows in maps, with an undo log so that a failed write (or transaction) leaves no trace. Values
 * are cloned on the way in and out: callers never share objects with the store.
 */
export class MemoryEngine implements RowEngine {
  private readonly tables = new Map<KindName, Map<string, StoredRow>>(KIND_NAMES.map((k) => [k, new Map()]));
  private revision = 0n;
  private changes: ChangeRecord[] = [];
  private compacted = 0n;
  private undo: (() => void)[] | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: MemoryEngineOptions) {}

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
  }

  getRow(kind: KindName, key: string): StoredRow | undefined {
    const row = this.table(kind).get(key);
    return row === undefined ? undefined : copy(row);
  }

  listRows(kind: KindName, filter: RowFilter): StoredRow[] {
    const spec = KINDS[kind];
    return [...this.table(kind).values()]
      .filter((r) => !isSoftDeleted(kind, r.value) && matchesFilter(spec.indexOf(r.value), filter))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(copy);
  }

  putRow(kind: KindName, row: StoredRow): void {
    const t = this.table(kind);
    const before = t.get(row.key);
    this.record(() => (before === undefined ? t.delete(row.key) : t.set(row.key, before)));
    t.set(row.key, copy(row));
  }

  removeRow(kind: KindName, key: string): void {
    const t = this.table(kind);
    const before = t.get(key);
    if (before === undefined) return;
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

  appendChange(change: ChangeRecord): void {
    this.record(() => this.changes.pop());
    this.changes.push({ ...change, value: structuredClone(change.value) });
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
      if (c?.kind === kind) out.push({ ...c, value: structuredClone(c.value) });
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
