import { type IPPool, type ParsedCidr, cidrContains, parseCidr } from '@ipamkit/models';
import { UNKNOWN_POOL_LABEL } from '../constants.js';

interface KnownPool {
  readonly pool: IPPool;
  /** Parsed once: the association of 10,000 blocks would otherwise parse the pool 10,000 times. */
  readonly parsed: ParsedCidr;
}

/**
 * Pool ↔ block association (design/calico-callers.md#ingesting-updates). Unlike Calico, which takes the first covering pool
 * in map order, a block goes to the narrowest covering pool, then the first by name, so overlapping
 * pools give the same answer every run (design/calico-callers.md#gc-edge-cases).
 */
export class PoolManager {
  private readonly pools = new Map<string, KnownPool>();
  private readonly blocksOfPool = new Map<string, Set<string>>();
  private readonly poolOfBlock = new Map<string, string>();

  get allPools(): ReadonlyMap<string, IPPool> {
    return new Map([...this.pools].map(([name, known]) => [name, known.pool]));
  }

  readonly blocksByPool: ReadonlyMap<string, ReadonlySet<string>> = this.blocksOfPool;

  readonly poolsByBlock: ReadonlyMap<string, string> = this.poolOfBlock;

  hasPool(name: string): boolean {
    return this.pools.has(name);
  }

  poolOf(cidr: string): string {
    return this.poolOfBlock.get(cidr) ?? UNKNOWN_POOL_LABEL;
  }

  /** Returns false (and stores nothing) when the pool CIDR does not parse. */
  onPoolUpdated(pool: IPPool): boolean {
    let parsed: ParsedCidr;
    try {
      parsed = parseCidr(pool.cidr);
    } catch {
      return false;
    }
    const isNew = !this.pools.has(pool.name);
    this.pools.set(pool.name, { pool, parsed });
    if (isNew) {
      this.blocksOfPool.set(pool.name, new Set());
      const orphans = this.blocksOfPool.get(UNKNOWN_POOL_LABEL);
      for (const cidr of [...(orphans ?? [])]) {
        if (covers(parsed, cidr)) this.move(cidr, pool.name);
      }
    }
    return true;
  }

  onPoolDeleted(name: string): void {
    for (const cidr of [...(this.blocksOfPool.get(name) ?? [])]) this.move(cidr, UNKNOWN_POOL_LABEL);
    this.blocksOfPool.delete(name);
    this.pools.delete(name);
  }

  /**
   * Associates a block once; later updates never move it (a pool deletion does). `parsed` is the
   * block's CIDR already parsed, when the caller has it.
   */
  onBlockUpdated(cidr: string, parsed?: ParsedCidr): void {
    if (this.poolOfBlock.has(cidr)) return;
    const block = parsed ?? cidr;
    let best: KnownPool | undefined;
    for (const known of this.pools.values()) {
      if (!covers(known.parsed, block)) continue;
      const prefixLength = known.parsed.prefixLength;
      const bestPrefixLength = best?.parsed.prefixLength ?? -1;
      if (best === undefined || prefixLength > bestPrefixLength || (prefixLength === bestPrefixLength && known.pool.name < best.pool.name)) {
        best = known;
      }
    }
    this.add(cidr, best?.pool.name ?? UNKNOWN_POOL_LABEL);
  }

  onBlockDeleted(cidr: string): void {
    const pool = this.poolOfBlock.get(cidr);
    if (pool === undefined) return;
    this.poolOfBlock.delete(cidr);
    const set = this.blocksOfPool.get(pool);
    set?.delete(cidr);
    // Known pools keep an empty set until they are deleted; the orphan bucket goes when empty.
    if (pool === UNKNOWN_POOL_LABEL && set?.size === 0) this.blocksOfPool.delete(pool);
  }

  private move(cidr: string, pool: string): void {
    this.onBlockDeleted(cidr);
    this.add(cidr, pool);
  }

  private add(cidr: string, pool: string): void {
    this.poolOfBlock.set(cidr, pool);
    let set = this.blocksOfPool.get(pool);
    if (set === undefined) {
      set = new Set();
      this.blocksOfPool.set(pool, set);
    }
    set.add(cidr);
  }
}

function covers(poolCidr: ParsedCidr, blockCidr: string | ParsedCidr): boolean {
  try {
    return cidrContains(poolCidr, blockCidr);
  } catch {
    return false;
  }
}
