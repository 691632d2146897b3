import type { IPPool, Node, WatchEvent } from '@ipamkit/models';

/**
 * The fields whose change can change a reconcile's outcome. Unlike Calico (which compares its
 * internal v1 pool and so misses them), `nodeSelector`, the deletion timestamp and the
 * Allocatable condition count for pools, and labels count for the Node: selectors are evaluated
 * against them (design/calico-callers.md#tunnel-address-allocator).
 */
function poolFingerprint(pool: IPPool): string {
  return JSON.stringify([
    pool.cidr,
    pool.ipipMode ?? '',
    pool.vxlanMode ?? '',
    pool.disabled ?? false,
    pool.deletionTimestamp ?? '',
    pool.allowedUses ?? [],
    pool.nodeSelector ?? '',
    (pool.conditions ?? []).filter((c) => c.type === 'Allocatable').map((c) => c.status),
  ]);
}

function sortedEntries(record: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function nodeFingerprint(node: Node): string {
  return JSON.stringify([
    sortedEntries(node.labels),
    node.wireguardPublicKey ?? '',
    node.wireguardPublicKeyV6 ?? '',
    // Someone clearing or editing a tunnel field is re-checked; our own write then costs one no-op run.
    sortedEntries(node.tunnelAddresses as Record<string, string> | undefined),
  ]);
}

/**
 * Decides which watch events trigger a reconcile, keeping the last fingerprint of every pool and of
 * the own Node. Pure apart from that cache.
 */
export class TriggerFilter {
  private readonly pools = new Map<string, string>();
  private node: string | undefined;

  constructor(private readonly nodeName: string) {}

  /** Seeds the pool cache from a (re-)list; the caller triggers a reconcile itself. */
  seedPools(pools: readonly IPPool[]): void {
    this.pools.clear();
    for (const pool of pools) this.pools.set(pool.name, poolFingerprint(pool));
  }

  /** Seeds the own Node's fingerprint from a (re-)list of nodes. */
  seedNodes(nodes: readonly Node[]): void {
    const own = nodes.find((n) => n.name === this.nodeName);
    this.node = own === undefined ? undefined : nodeFingerprint(own);
  }

  poolEvent(event: WatchEvent<IPPool>): boolean {
    if (event.type === 'bookmark') return false;
    if (event.type === 'deleted') {
      if (event.previous !== undefined) this.pools.delete(event.previous.name);
      return true;
    }
    const next = poolFingerprint(event.object);
    const before = this.pools.get(event.object.name);
    this.pools.set(event.object.name, next);
    return before !== next;
  }

  nodeEvent(event: WatchEvent<Node>): boolean {
    if (event.type === 'bookmark') return false;
    if (event.type === 'deleted') {
      const name = event.previous?.name;
      const ours = name === undefined ? event.key === this.nodeName || event.key.endsWith(`/${this.nodeName}`) : name === this.nodeName;
      if (ours) this.node = undefined;
      return ours;
    }
    if (event.object.name !== this.nodeName) return false;
    const next = nodeFingerprint(event.object);
    const before = this.node;
    this.node = next;
    return before !== next;
  }
}
