import type { BlockAffinity, DefaultedIPPool, IPAMConfig, Node, StampTarget, TxStamps, Versioned } from '@ipamkit/models';
import type { ReservationFilter } from '../reservations/reservation-filter.js';

/** A value derived from one read, and the stamp of the state that read saw. */
interface Stamped<T> {
  readonly stamp: string;
  readonly value: T;
}

type AffinitiesTarget = Extract<StampTarget, { kind: 'affinities' }>;

const affinitiesKey = (t: AffinitiesTarget): string => `${t.type}:${t.host}:v${String(t.ipVersion)}`;

/** Nodes and (owner, family) affinity lists kept; the least recently used goes first. */
export const CACHED_OWNERS = 256;

/** A map that forgets its least recently used entry beyond `capacity`. */
class LruMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Freezes a value kept across calls, so that code which changed a cached object in place would
 * throw instead of changing what the next call reads.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

/** One slot of the cache: where an entry is kept and how the state it came from is stamped. */
export interface CacheSlot<T> {
  readonly target: StampTarget;
  readonly entry: Stamped<T> | undefined;
  keep(entry: Stamped<T>): void;
}

/**
 * What AutoAssign keeps of its assignment context between calls (design/ipam-core.md, "The cached
 * assignment context"): each value is a pure function of one read, kept with that read's version
 * stamp, and used again only by a transaction that reads the same stamp. An entry is never trusted
 * on its own: it is exactly as current as the stamp read with it.
 */
export class AssignContextCache {
  private config: Stamped<IPAMConfig> | undefined;
  private pools: Stamped<readonly DefaultedIPPool[]> | undefined;
  private reservations: Stamped<ReservationFilter> | undefined;
  private readonly nodes = new LruMap<Stamped<Node>>(CACHED_OWNERS);
  private readonly affinities = new LruMap<Stamped<readonly Versioned<BlockAffinity>[]>>(CACHED_OWNERS);

  configSlot(): CacheSlot<IPAMConfig> {
    return { target: { kind: 'ipamConfig' }, entry: this.config, keep: (e) => (this.config = e) };
  }

  poolsSlot(): CacheSlot<readonly DefaultedIPPool[]> {
    return { target: { kind: 'ipPools' }, entry: this.pools, keep: (e) => (this.pools = e) };
  }

  reservationsSlot(): CacheSlot<ReservationFilter> {
    return { target: { kind: 'ipReservations' }, entry: this.reservations, keep: (e) => (this.reservations = e) };
  }

  nodeSlot(name: string): CacheSlot<Node> {
    return { target: { kind: 'node', name }, entry: this.nodes.get(name), keep: (e) => this.nodes.set(name, e) };
  }

  affinitiesSlot(target: AffinitiesTarget): CacheSlot<readonly Versioned<BlockAffinity>[]> {
    const key = affinitiesKey(target);
    return { target, entry: this.affinities.get(key), keep: (e) => this.affinities.set(key, e) };
  }

  /**
   * Drops the owner's affinity list after this client changed it (a claim, a release): the next
   * call then reads it in its first wave with the stamp instead of noticing the moved stamp and
   * reading it in a second one. Never needed for correctness: the stamp would notice.
   */
  forgetAffinities(target: AffinitiesTarget): void {
    this.affinities.delete(affinitiesKey(target));
  }

  /** Entries held, for the heap bound (design/ipam-core.md, "The cached assignment context"). */
  get owners(): number {
    return this.affinities.size + this.nodes.size;
  }
}

/**
 * The value of `slot` as the transaction sees it: the stamp is read and, without an entry, the
 * value too, both in the current wave; with an entry, the value is read (one more wave) only if
 * the stamp moved. The kept entry is always the value read together with its stamp.
 */
export async function throughSlot<T>(slot: CacheSlot<T>, stamps: TxStamps, read: () => Promise<T>): Promise<T> {
  const { entry } = slot;
  if (entry === undefined) {
    const [stamp, value] = await Promise.all([stamps.get(slot.target), read()]);
    slot.keep({ stamp, value: deepFreeze(value) });
    return value;
  }
  const stamp = await stamps.get(slot.target);
  if (stamp === entry.stamp) return entry.value;
  const value = deepFreeze(await read());
  slot.keep({ stamp, value });
  return value;
}
