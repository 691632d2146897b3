import type { KindName } from '../engine/kinds.js';
import type { RowStamp, StampFilter } from '../engine/row-engine.js';

/** Far more than the targets one client stamps (a config, pools, reservations, its nodes and owners). */
const MAX_ENTRIES = 1024;

interface Entry {
  readonly stamp: RowStamp;
  /** `PRAGMA data_version` of this connection when the stamp was read. */
  readonly dataVersion: bigint;
  /** This connection's write generation of the kind when the stamp was read. */
  readonly generation: number;
}

/**
 * Stamps read earlier on this connection, reused while provably current (design/ipam-datastore.md,
 * "Version stamps"): SQLite's `PRAGMA data_version` changes whenever another connection commits
 * to the file, and never for this connection's own writes, which `wrote` counts per kind instead.
 * So a stamp is still the stamp of its rows when both are as they were: no other connection
 * committed anything, and this one wrote nothing of that kind, since the stamp was read. A
 * rollback forgets every entry, since a stamp read after an undone write names a state that no
 * longer exists.
 */
export class StampMemo {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<KindName, number>();

  /** The stamp of `kind`/`filter`: `read()` when this memo cannot prove its entry current. */
  stamp(kind: KindName, filter: StampFilter, dataVersion: bigint, read: () => RowStamp): RowStamp {
    const id = `${kind}\u0000${filter.key ?? ''}\u0000${filter.host ?? ''}\u0000${filter.type ?? ''}\u0000${String(filter.ipVersion ?? '')}`;
    const generation = this.generations.get(kind) ?? 0;
    const hit = this.entries.get(id);
    if (hit !== undefined && hit.dataVersion === dataVersion && hit.generation === generation) return hit.stamp;
    const stamp = read();
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(id, { stamp, dataVersion, generation });
    return stamp;
  }

  /** This connection wrote (or removed) a row of `kind`. */
  wrote(kind: KindName): void {
    this.generations.set(kind, (this.generations.get(kind) ?? 0) + 1);
  }

  forget(): void {
    this.entries.clear();
  }
}
