import { type AllocationBlock, type IPPool, type IPReservation, type ParsedCidr, type Versioned, addressAt, parseCidr } from '@ipamkit/models';
import { Allocation, allocationId } from './allocation.js';
import { PoolManager } from './pool-manager.js';

type Block = Versioned<AllocationBlock>;

/**
 * What the collector keeps of a block: its identity and owner. The core re-reads the block for
 * every write, so the ordinals need not stay in memory (design/gc.md "Memory").
 */
export interface BlockSummary {
  readonly cidr: string;
  readonly affinity?: AllocationBlock['affinity'];
  readonly revision: string;
  readonly sequenceNumber: bigint;
}

/** The address at `ordinal`: IPv4 by integer arithmetic (the hot path), IPv6 through models. */
function addressFor(parsed: ParsedCidr, ordinal: number): string {
  if (parsed.version !== 4) return addressAt(parsed, ordinal);
  const v = Number(parsed.network) + ordinal;
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

function sameAttrs(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}

/**
 * Every map of the collector (design/calico-callers.md#gc-state), changed only here (rubric 2, lint rule
 * `gc-state-through-tracker`). Allocations enter and leave through `assignAllocation` /
 * `releaseAllocation` and blocks leave through `forgetBlock`, so no path can update one map and
 * skip another; `assertConsistentState` checks the result.
 */
export class GcState {
  private readonly blocks = new Map<string, BlockSummary>();
  // Each known block's parsed CIDR, kept in step with `blocks`: a re-list or a watch update of a
  // known block re-parses nothing, and the pool association reuses it (design/gc.md "Performance").
  private readonly parsedCidrs = new Map<string, ParsedCidr>();
  private readonly byBlock = new Map<string, Map<string, Allocation>>();
  private readonly byNode = new Map<string, Map<string, Allocation>>();
  private readonly dirty = new Set<string>();
  // Arrays, not Maps: almost every handle has one or two addresses, and 150,000 small Maps cost
  // more memory and GC time than the rest of the tracker (design/gc.md "Scale").
  private readonly byHandle = new Map<string, Allocation[]>();
  private readonly confirmed = new Map<string, Allocation>();
  private readonly loadBalancer = new Map<string, Allocation>();
  private readonly nodeOfBlock = new Map<string, string>();
  private readonly blocksOfNode = new Map<string, Set<string>>();
  private readonly empty = new Map<string, string>();
  private readonly cold = new Map<string, number>();
  private readonly emptySince = new Map<string, number>();
  private readonly calicoNodes = new Map<string, string>();
  private readonly reservationsByName = new Map<string, IPReservation>();
  readonly pools = new PoolManager();

  /** All initial lists are in (Calico's syncer InSync). */
  inSync = false;
  /** ClusterInformation.spec.datastoreReady; starts true. */
  datastoreReady = true;
  /** The next scan covers every node. */
  fullSyncRequired = false;
  /** A LoadBalancer allocation appeared or a Service went away since the last LoadBalancer scan. */
  loadBalancerDirty = false;

  // ---- read-only views ---------------------------------------------------------------------

  readonly allBlocks: ReadonlyMap<string, BlockSummary> = this.blocks;
  /** The parsed CIDR of every known block (same keys as `allBlocks`). */
  readonly blockCidrs: ReadonlyMap<string, ParsedCidr> = this.parsedCidrs;
  readonly allocationsByBlock: ReadonlyMap<string, ReadonlyMap<string, Allocation>> = this.byBlock;
  readonly allocationsByNode: ReadonlyMap<string, ReadonlyMap<string, Allocation>> = this.byNode;
  readonly dirtyNodes: ReadonlySet<string> = this.dirty;
  readonly allocationsByHandle: ReadonlyMap<string, readonly Allocation[]> = this.byHandle;
  readonly confirmedLeaks: ReadonlyMap<string, Allocation> = this.confirmed;
  readonly loadBalancerAllocations: ReadonlyMap<string, Allocation> = this.loadBalancer;
  readonly nodesByBlock: ReadonlyMap<string, string> = this.nodeOfBlock;
  readonly blocksByNode: ReadonlyMap<string, ReadonlySet<string>> = this.blocksOfNode;
  readonly emptyBlocks: ReadonlyMap<string, string> = this.empty;
  readonly coldBlocks: ReadonlyMap<string, number> = this.cold;
  readonly blockReleaseTracker: ReadonlyMap<string, number> = this.emptySince;
  readonly kubernetesNodesByCalicoName: ReadonlyMap<string, string> = this.calicoNodes;
  readonly reservations: ReadonlyMap<string, IPReservation> = this.reservationsByName;

  // ---- the allocation pair -----------------------------------------------------------------

  assignAllocation(a: Allocation): void {
    this.track(a, this.allocationsOf(a.block));
  }

  private allocationsOf(cidr: string): Map<string, Allocation> {
    let inner = this.byBlock.get(cidr);
    if (inner === undefined) {
      inner = new Map();
      this.byBlock.set(cidr, inner);
    }
    return inner;
  }

  /** `assignAllocation` with the block's map already looked up (once per block on ingest). */
  private track(a: Allocation, inner: Map<string, Allocation>): void {
    inner.set(a.id, a);
    this.indexByNode(a);
    const handles = this.byHandle.get(a.handle);
    if (handles === undefined) this.byHandle.set(a.handle, [a]);
    else if (!handles.includes(a)) handles.push(a);
  }

  releaseAllocation(a: Allocation): void {
    const handles = this.byHandle.get(a.handle);
    const at = handles?.indexOf(a) ?? -1;
    if (handles !== undefined && at !== -1) {
      handles.splice(at, 1);
      if (handles.length === 0) this.byHandle.delete(a.handle);
    }
    this.confirmed.delete(a.id);
    this.unindexByNode(a);
    this.byBlock.get(a.block)?.delete(a.id);
  }

  private indexByNode(a: Allocation): void {
    const node = a.node;
    if (node === '') {
      if (a.isLoadBalancerAddress()) {
        this.loadBalancer.set(a.id, a);
        this.loadBalancerDirty = true;
      }
      return;
    }
    let inner = this.byNode.get(node);
    if (inner === undefined) {
      inner = new Map();
      this.byNode.set(node, inner);
    }
    inner.set(a.id, a);
    this.dirty.add(node);
  }

  private unindexByNode(a: Allocation): void {
    const node = a.node;
    if (node === '') {
      this.loadBalancer.delete(a.id);
      return;
    }
    const inner = this.byNode.get(node);
    if (inner === undefined) return;
    inner.delete(a.id);
    if (inner.size === 0) this.byNode.delete(node);
    this.dirty.add(node);
  }

  // ---- leak bookkeeping --------------------------------------------------------------------

  /** Records a confirmed leak for release; call after `a.markConfirmedLeak()` / `markLeak()`. */
  trackConfirmedLeak(a: Allocation): void {
    if (a.isConfirmedLeak() && this.byBlock.get(a.block)?.get(a.id) === a) this.confirmed.set(a.id, a);
  }

  /** The allocation proved valid: clears its leak state and its confirmed entry together. */
  resurrect(a: Allocation): void {
    a.markValid();
    this.confirmed.delete(a.id);
  }

  markDirty(node: string): void {
    if (node !== '') this.dirty.add(node);
  }

  markClean(node: string): void {
    this.dirty.delete(node);
  }

  // ---- blocks ------------------------------------------------------------------------------

  /** design/calico-callers.md#ingesting-updates, in Calico's order; `nowMs` stamps nothing here (the empty timer is design/calico-callers.md#empty-block-release's). */
  onBlockUpdated(block: Block): void {
    const cidr = block.cidr;
    // 1. Affinity; a host→host change drops the old mapping first (design/calico-callers.md#gc-edge-cases).
    const host = block.affinity?.type === 'host' ? block.affinity.host : '';
    const previous = this.nodeOfBlock.get(cidr);
    if (previous !== undefined && previous !== host) {
      removeFrom(this.blocksOfNode, previous, cidr);
      this.nodeOfBlock.delete(cidr);
    }
    if (host !== '') {
      this.nodeOfBlock.set(cidr, host);
      addTo(this.blocksOfNode, host, cidr);
    }
    // 2. Walk the ordinals (an index loop: no iterator or entry pair per ordinal).
    const parsed = this.parsedCidrs.get(cidr) ?? parseCidr(cidr);
    const known = this.byBlock.get(cidr);
    // Only a block we already track can have allocations to drop (step 4); the first listing of a
    // block, i.e. the whole of a full ingest, needs no identity set.
    const seen = known === undefined ? undefined : new Set<string>();
    const { allocations, attributes, sequenceNumberForAllocation } = block;
    let inner = known;
    let allocated = 0;
    let earliestReleased: number | undefined;
    for (let ordinal = 0; ordinal < allocations.length; ordinal++) {
      const index = allocations[ordinal];
      if (index === null) continue;
      allocated++;
      const attr = index === undefined ? undefined : attributes[index];
      if (attr?.releasedAt !== undefined) {
        const at = Date.parse(attr.releasedAt);
        if (!Number.isNaN(at) && (earliestReleased === undefined || at < earliestReleased)) earliestReleased = at;
      }
      const handle = attr?.handleId;
      if (handle === undefined || handle === '') continue;
      const ip = addressFor(parsed, ordinal);
      const id = allocationId(handle, ip);
      const attrs = attr?.activeOwnerAttrs ?? {};
      const sequenceNumber = sequenceNumberForAllocation[String(ordinal)] ?? 0n;
      seen?.add(id);
      const existing = known?.get(id);
      if (existing === undefined) {
        inner ??= this.allocationsOf(cidr);
        this.track(new Allocation(ip, handle, cidr, attrs, sequenceNumber, id), inner);
      } else if (existing.sequenceNumber !== sequenceNumber || !sameAttrs(existing.attrs, attrs)) {
        this.refresh(existing, attrs, sequenceNumber);
      }
    }
    // 3. Empty-block tracking: only host-affine blocks; any non-empty version resets the timer.
    this.empty.delete(cidr);
    if (host !== '' && allocated === 0) this.empty.set(cidr, host);
    else if (host !== '') this.emptySince.delete(cidr);
    // 4. Allocations gone from this version.
    if (known !== undefined && seen !== undefined) for (const [id, a] of [...known]) if (!seen.has(id)) this.releaseAllocation(a);
    // 5. Cold tracking.
    if (earliestReleased === undefined) this.cold.delete(cidr);
    else this.cold.set(cidr, earliestReleased);
    // 6–7.
    this.pools.onBlockUpdated(cidr, parsed);
    const { affinity, revision, sequenceNumber } = block;
    this.blocks.set(cidr, affinity === undefined ? { cidr, revision, sequenceNumber } : { cidr, affinity, revision, sequenceNumber });
    this.parsedCidrs.set(cidr, parsed);
  }

  /**
   * A re-used ordinal (new sequence number) or rewritten owner attributes: the cached copy takes the
   * new values and loses its leak state. Unlike Calico, attribute-only rewrites are picked up too,
   * and a changed `node` re-keys the node index (design/gc.md "Ingest").
   */
  private refresh(a: Allocation, attrs: Readonly<Record<string, string>>, sequenceNumber: bigint): void {
    this.unindexByNode(a);
    a.attrs = attrs;
    a.sequenceNumber = sequenceNumber;
    this.indexByNode(a);
    this.resurrect(a);
  }

  /** design/calico-callers.md#ingesting-updates: a deleted block, or one whose affinity the collector released. */
  forgetBlock(cidr: string): void {
    for (const a of [...(this.byBlock.get(cidr)?.values() ?? [])]) this.releaseAllocation(a);
    this.byBlock.delete(cidr);
    const node = this.nodeOfBlock.get(cidr);
    if (node !== undefined) removeFrom(this.blocksOfNode, node, cidr);
    this.nodeOfBlock.delete(cidr);
    this.blocks.delete(cidr);
    this.parsedCidrs.delete(cidr);
    this.empty.delete(cidr);
    this.cold.delete(cidr);
    this.emptySince.delete(cidr);
    this.pools.onBlockDeleted(cidr);
  }

  /**
   * The two-observation rule of design/calico-callers.md#empty-block-release: the first call starts the timer, later calls say whether
   * strictly more than `graceMs` has passed. No grace (unset or zero) disables block release.
   */
  markBlockEmpty(cidr: string, nowMs: number, graceMs: number | undefined): boolean {
    if (graceMs === undefined || graceMs <= 0) return false;
    const since = this.emptySince.get(cidr);
    if (since === undefined) {
      if (this.blocks.has(cidr)) this.emptySince.set(cidr, nowMs);
      return false;
    }
    return nowMs - since > graceMs;
  }

  markBlockInUse(cidr: string): void {
    this.emptySince.delete(cidr);
  }

  // ---- other kinds -------------------------------------------------------------------------

  /** Calico node → Kubernetes node name ('' for a node with no `k8s` orchestrator reference). */
  setCalicoNode(name: string, kubernetesName: string): void {
    this.calicoNodes.set(name, kubernetesName);
  }

  deleteCalicoNode(name: string): void {
    this.calicoNodes.delete(name);
  }

  setReservation(reservation: IPReservation): void {
    this.reservationsByName.set(reservation.name, reservation);
  }

  deleteReservation(name: string): void {
    this.reservationsByName.delete(name);
  }

  /** Returns whether the pool is new (its metric series must be created). */
  setPool(pool: IPPool): boolean {
    const isNew = !this.pools.hasPool(pool.name);
    return this.pools.onPoolUpdated(pool) && isNew;
  }

  deletePool(name: string): void {
    this.pools.onPoolDeleted(name);
  }

  /** A Service went away: the next pass re-checks LoadBalancer addresses. */
  markLoadBalancersDirty(): void {
    this.loadBalancerDirty = true;
  }

  /** A LoadBalancer scan finished. */
  markLoadBalancersClean(): void {
    this.loadBalancerDirty = false;
  }
}
