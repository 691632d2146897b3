import { numReservedIPsInCIDR } from '@ipamkit/ipam-core';
import { type IPPool, parseCidr } from '@ipamkit/models';
import { Counter, Gauge, type Registry } from 'prom-client';
import { NO_AFFINITY_LABEL, UNKNOWN_NODE_LABEL, UNKNOWN_POOL_LABEL } from '../constants.js';
import type { GcState } from '../state/gc-state.js';

type PoolNode = 'ippool' | 'node';

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/**
 * Calico's GC metrics, names and labels kept (design/calico-callers.md#gc-metrics). Calico registers one vector per pool
 * with a constant `ippool` label; one vector with an `ippool` label exposes the same series, and
 * registering once makes a pool whose CIDR does not parse harmless (Calico panics on it).
 * Gauges are recomputed from the maps, never incremented; only reclamations count up.
 */
export class GcMetrics {
  private readonly inUse: Gauge<PoolNode>;
  private readonly borrowed: Gauge<PoolNode>;
  private readonly blocks: Gauge<PoolNode>;
  private readonly candidates: Gauge<PoolNode>;
  private readonly reclamations: Counter<PoolNode>;
  private readonly poolSize: Gauge<'ippool'>;
  private readonly poolReserved: Gauge<'ippool'>;
  private readonly perNode: Gauge<'node'>;
  private readonly borrowedPerNode: Gauge<'node'>;
  private readonly blocksPerNode: Gauge<'node'>;
  /** Which (pool, node) reclamation series exist, so a pool or node can drop its own. */
  private readonly reclaimed = new Map<string, Set<string>>();

  constructor(readonly registry: Registry) {
    const registers = [registry];
    const perPool = (name: string, help: string): Gauge<PoolNode> => new Gauge({ name, help, labelNames: ['ippool', 'node'], registers });
    this.inUse = perPool('ipam_allocations_in_use', 'IPs currently allocated, by pool and node');
    this.borrowed = perPool('ipam_allocations_borrowed', 'IPs allocated to a node from a block affine to another node (or to none)');
    this.blocks = perPool('ipam_blocks', 'IPAM blocks, by pool and affine node');
    this.candidates = perPool('ipam_allocations_gc_candidates', 'Allocations the garbage collector considers leaked (candidates or confirmed)');
    this.reclamations = new Counter({
      name: 'ipam_allocations_gc_reclamations',
      help: 'Leaked allocations the garbage collector released',
      labelNames: ['ippool', 'node'],
      registers,
    });
    this.poolSize = new Gauge({ name: 'ipam_ippool_size', help: 'Addresses in the IP pool CIDR', labelNames: ['ippool'], registers });
    this.poolReserved = new Gauge({ name: 'ipam_ippool_reserved', help: 'Addresses of the IP pool covered by IPReservations', labelNames: ['ippool'], registers });
    this.perNode = new Gauge({ name: 'ipam_allocations_per_node', help: 'IPs allocated per node (legacy)', labelNames: ['node'], registers });
    this.borrowedPerNode = new Gauge({ name: 'ipam_allocations_borrowed_per_node', help: 'Borrowed IPs per node (legacy)', labelNames: ['node'], registers });
    this.blocksPerNode = new Gauge({ name: 'ipam_blocks_per_node', help: 'IPAM blocks per affine node (legacy)', labelNames: ['node'], registers });
  }

  /** A pool first seen: publish its size. */
  onPoolAdded(pool: IPPool): void {
    try {
      const cidr = parseCidr(pool.cidr);
      this.poolSize.set({ ippool: pool.name }, 2 ** ((cidr.version === 4 ? 32 : 128) - cidr.prefixLength));
    } catch {
      // An unparseable CIDR has no size; the pool is otherwise ignored.
    }
  }

  /** A pool deleted: its series go (the per-pool gauges at the next `update`), reclamations included. */
  onPoolDeleted(name: string): void {
    this.poolSize.remove({ ippool: name });
    this.poolReserved.remove({ ippool: name });
    for (const node of this.reclaimed.get(name) ?? []) this.reclamations.remove({ ippool: name, node });
    this.reclaimed.delete(name);
  }

  countReclamation(pool: string, node: string): void {
    this.reclamations.inc({ ippool: pool, node });
    let nodes = this.reclaimed.get(pool);
    if (nodes === undefined) {
      nodes = new Set();
      this.reclaimed.set(pool, nodes);
    }
    nodes.add(node);
  }

  /** A deleted node's cleanup succeeded: its reclamation series go, in every pool. */
  forgetNodeReclamations(node: string): void {
    for (const [pool, nodes] of this.reclaimed) {
      if (nodes.delete(node)) this.reclamations.remove({ ippool: pool, node });
    }
  }

  /** Recomputes every gauge from the maps (design/calico-callers.md#gc-metrics "Recompute"). */
  update(state: GcState, knownNodes: Iterable<string>): void {
    const seed = [...knownNodes];
    for (const g of [this.inUse, this.borrowed, this.blocks, this.candidates, this.perNode, this.borrowedPerNode, this.blocksPerNode]) g.reset();
    const borrowedByNode = new Map<string, number>();
    const blocksByNode = new Map<string, number>();
    for (const [pool, cidrs] of state.pools.blocksByPool) {
      const inUse = new Map<string, number>();
      const borrowed = new Map<string, number>();
      const candidates = new Map<string, number>();
      const blocks = new Map<string, number>();
      if (pool !== UNKNOWN_POOL_LABEL) {
        for (const node of seed) {
          inUse.set(node, 0);
          borrowed.set(node, 0);
          candidates.set(node, 0);
        }
      }
      // In-use counts go by runs of one node (a block's allocations mostly share the affine node):
      // one map update per run instead of one per allocation, in the same first-seen order.
      let runNode: string | undefined;
      let run = 0;
      for (const cidr of cidrs) {
        const affine = state.nodesByBlock.get(cidr);
        bump(blocks, affine ?? NO_AFFINITY_LABEL);
        bump(blocksByNode, affine ?? NO_AFFINITY_LABEL);
        for (const a of state.allocationsByBlock.get(cidr)?.values() ?? []) {
          const attrNode = a.node;
          const node = attrNode === '' ? UNKNOWN_NODE_LABEL : attrNode;
          if (node !== runNode) {
            if (runNode !== undefined) bump(inUse, runNode, run);
            runNode = node;
            run = 0;
          }
          run++;
          if (attrNode !== '' && affine !== attrNode) {
            bump(borrowed, node);
            bump(borrowedByNode, node);
          }
          if (a.isCandidateLeak() || a.isConfirmedLeak()) bump(candidates, node);
        }
      }
      if (runNode !== undefined) bump(inUse, runNode, run);
      for (const [node, n] of inUse) this.inUse.set({ ippool: pool, node }, n);
      for (const [node, n] of borrowed) this.borrowed.set({ ippool: pool, node }, n);
      for (const [node, n] of candidates) this.candidates.set({ ippool: pool, node }, n);
      for (const [node, n] of blocks) this.blocks.set({ ippool: pool, node }, n);
    }
    for (const [node, allocations] of state.allocationsByNode) this.perNode.set({ node }, allocations.size);
    for (const [node, n] of borrowedByNode) this.borrowedPerNode.set({ node }, n);
    for (const [node, n] of blocksByNode) this.blocksPerNode.set({ node }, n);
    const reservations = [...state.reservations.values()];
    for (const [name, pool] of state.pools.allPools) {
      this.poolReserved.set({ ippool: name }, Number(numReservedIPsInCIDR(pool.cidr, reservations)));
    }
  }
}
