import { ETCD_IPAM_ROOT } from '@ipamkit/models';
import type { RawKv, ReadRequest, ReadResult, TxnOp } from './etcd-kv.js';
import { POOL_PREFIX, RESERVATION_PREFIX } from './etcd-layout.js';

/** A key as last seen: its state (undefined = absent). */
interface CachedKey {
  readonly raw: RawKv | undefined;
}

/** A prefix range as last read, and the store revision it was read at. */
export interface CachedRange {
  readonly kvs: readonly RawKv[];
  readonly revision: string;
}

/** Most keys remembered (LRU); one AutoAssign touches about six. */
const KEY_CAPACITY = 4096;
const RANGE_CAPACITY = 256;
/**
 * A cached range is validated at commit with one compare per key (to notice deletions), and etcd
 * refuses transactions of more than 128 compares by default: bigger ranges are always read fresh.
 */
export const MAX_CACHED_RANGE_KEYS = 24;

const AFFINITY_TREES = [`${ETCD_IPAM_ROOT}host/`, `${ETCD_IPAM_ROOT}virtual/`];

/**
 * The ranges a transaction may take from the cache: the small, rarely written ones that every
 * AutoAssign lists (pools, reservations, one owner's affinities). The all-blocks and all-affinities
 * ranges change with every other host's work, so validating them would only turn other hosts'
 * writes into retries: they are always read fresh.
 */
export function isCacheableRange(start: string, end: string | undefined): boolean {
  if (end !== undefined) return false;
  if (start === POOL_PREFIX || start === RESERVATION_PREFIX) return true;
  // `host/<host>/...` and `virtual/<owner>/...`: one owner's affinities, never a whole tree.
  return AFFINITY_TREES.some((tree) => start.startsWith(tree) && start.length > tree.length + 1 && start.indexOf('/', tree.length) > tree.length);
}

export const rangeId = (start: string, end: string | undefined): string => `${start}\u0000${end ?? ''}`;

/**
 * What this process last saw of the keys and small ranges its transactions read, so that a
 * steady-state transaction can run its body without reading and have its commit (one etcd
 * transaction) check that every cached read is still current. Nothing here is ever trusted
 * without that check: a stale entry costs one failed commit, whose else branch refreshes it.
 */
export class TxReadCache {
  private readonly keys = new Map<string, CachedKey>();
  private readonly ranges = new Map<string, CachedRange>();

  key(key: string): CachedKey | undefined {
    const hit = this.keys.get(key);
    if (hit !== undefined) {
      // LRU: a hit moves to the young end.
      this.keys.delete(key);
      this.keys.set(key, hit);
    }
    return hit;
  }

  range(start: string, end: string | undefined): CachedRange | undefined {
    return isCacheableRange(start, end) ? this.ranges.get(rangeId(start, end)) : undefined;
  }

  /** Remembers what a read returned at `revision`. */
  remember(req: ReadRequest, result: ReadResult, revision: string): void {
    if (req.kind === 'key') {
      if (!Array.isArray(result)) this.setKey(req.key, result);
      return;
    }
    if (!Array.isArray(result) || !isCacheableRange(req.start, req.end)) return;
    const id = rangeId(req.start, req.end);
    this.ranges.delete(id);
    if (result.length > MAX_CACHED_RANGE_KEYS) return;
    if (this.ranges.size >= RANGE_CAPACITY) this.evictOldest(this.ranges);
    this.ranges.set(id, { kvs: result, revision });
  }

  /**
   * Records a committed transaction's writes at `revision`, and drops every cached range holding a
   * written key: a range entry is only ever what etcd returned.
   */
  committed(ops: readonly TxnOp[], revision: string, createRevisionOf: (key: string) => string | undefined): void {
    for (const op of ops) {
      for (const [id, range] of this.ranges) {
        const [start = '', end = ''] = id.split('\u0000');
        const inRange = end === '' ? op.key.startsWith(start) : op.key >= start && op.key < end;
        if (inRange || range.kvs.some((kv) => kv.key === op.key)) this.ranges.delete(id);
      }
      if (op.op === 'delete') {
        this.setKey(op.key, undefined);
        continue;
      }
      // An unknown create revision is kept as '': key entries are validated by mod revision only.
      this.setKey(op.key, { key: op.key, value: op.value, modRevision: revision, createRevision: createRevisionOf(op.key) ?? '' });
    }
  }

  private setKey(key: string, raw: RawKv | undefined): void {
    this.keys.delete(key);
    if (this.keys.size >= KEY_CAPACITY) this.evictOldest(this.keys);
    this.keys.set(key, { raw });
  }

  private evictOldest(map: Map<string, unknown>): void {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}
