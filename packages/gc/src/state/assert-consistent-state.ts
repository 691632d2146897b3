import { UNKNOWN_POOL_LABEL } from '../constants.js';
import { GcInconsistentStateError } from '../errors.js';
import type { Allocation } from './allocation.js';
import type { GcState } from './gc-state.js';

export interface ConsistencyOptions {
  /**
   * Also assert C8 (every node with allocations owns a block). It holds in test fixtures but not in
   * production, where a node may hold only borrowed addresses (design/calico-callers.md#gc-invariants).
   */
  readonly fixtureInvariants?: boolean;
}

/**
 * Cross-checks every map of the collector: Calico's C1–C8 plus the handle tracker, the confirmed
 * leaks, the node index, the LoadBalancer index, the empty-block timers and the pool association,
 * which Calico's version leaves out. Throws GcInconsistentStateError listing every violation.
 */
export function assertConsistentState(state: GcState, options: ConsistencyOptions = {}): void {
  const problems: string[] = [];
  const fail = (text: string): void => {
    problems.push(text);
  };
  const blocks = state.allBlocks;
  for (const cidr of state.emptyBlocks.keys()) if (!blocks.has(cidr)) fail(`C1: empty block ${cidr} is not a known block`);
  for (const [node, cidrs] of state.blocksByNode) {
    if (cidrs.size === 0) fail(`blocksByNode[${node}] is an empty set`);
    for (const cidr of cidrs) {
      if (!blocks.has(cidr)) fail(`C2: blocksByNode[${node}] has unknown block ${cidr}`);
      if (state.nodesByBlock.get(cidr) !== node) fail(`C5: blocksByNode[${node}] has ${cidr} but nodesByBlock says ${String(state.nodesByBlock.get(cidr))}`);
    }
  }
  for (const cidr of state.allocationsByBlock.keys()) if (!blocks.has(cidr)) fail(`C3: allocations for unknown block ${cidr}`);
  for (const cidr of state.coldBlocks.keys()) if (!blocks.has(cidr)) fail(`C4: cold block ${cidr} is not a known block`);
  for (const [cidr, node] of state.nodesByBlock) {
    if (state.blocksByNode.get(node)?.has(cidr) !== true) fail(`C6: nodesByBlock[${cidr}] = ${node} but blocksByNode lacks it`);
  }
  for (const [cidr, node] of state.emptyBlocks) {
    if (state.nodesByBlock.get(cidr) !== node) fail(`empty block ${cidr} is not affine to ${node}`);
  }
  for (const cidr of state.blockReleaseTracker.keys()) if (!blocks.has(cidr)) fail(`empty timer for unknown block ${cidr}`);
  if (state.blockCidrs.size !== blocks.size) fail(`the parsed CIDR cache holds ${state.blockCidrs.size} blocks, expected ${blocks.size}`);
  for (const cidr of state.blockCidrs.keys()) if (!blocks.has(cidr)) fail(`parsed CIDR cached for unknown block ${cidr}`);

  // Every tracked allocation, from the block index (the source of truth).
  const tracked = new Map<string, Allocation>();
  for (const [cidr, inner] of state.allocationsByBlock) {
    for (const [id, a] of inner) {
      if (a.block !== cidr || a.id !== id) fail(`allocation ${id} is filed under block ${cidr} but belongs to ${a.block}`);
      tracked.set(id, a);
    }
  }
  let byNodeCount = 0;
  for (const [node, inner] of state.allocationsByNode) {
    if (inner.size === 0) fail(`allocationsByNode[${node}] is empty`);
    if (options.fixtureInvariants === true && !state.blocksByNode.has(node)) fail(`C8: node ${node} has allocations but no blocks`);
    for (const [id, a] of inner) {
      byNodeCount++;
      if (a.node !== node) fail(`allocation ${id} is under node ${node} but its node is ${a.node}`);
      if (state.allocationsByBlock.get(a.block)?.get(id) !== a) fail(`C7: allocation ${id} of node ${node} is not in allocationsByBlock[${a.block}]`);
    }
  }
  let withNode = 0;
  let loadBalancers = 0;
  for (const a of tracked.values()) {
    if (a.node !== '') withNode++;
    else if (a.isLoadBalancerAddress()) loadBalancers++;
  }
  if (withNode !== byNodeCount) fail(`allocationsByNode holds ${byNodeCount} allocations, expected ${withNode} (those with a node)`);
  if (loadBalancers !== state.loadBalancerAllocations.size) fail(`LoadBalancer index holds ${state.loadBalancerAllocations.size}, expected ${loadBalancers}`);
  for (const [id, a] of state.loadBalancerAllocations) {
    if (state.allocationsByBlock.get(a.block)?.get(id) !== a) fail(`LoadBalancer allocation ${id} is not tracked`);
  }

  let byHandleCount = 0;
  for (const [handle, inner] of state.allocationsByHandle) {
    if (inner.length === 0) fail(`handle ${handle} has an empty entry`);
    if (new Set(inner).size !== inner.length) fail(`handle ${handle} lists an allocation twice`);
    for (const a of inner) {
      const id = a.id;
      byHandleCount++;
      if (a.handle !== handle) fail(`allocation ${id} is under handle ${handle} but has ${a.handle}`);
      if (state.allocationsByBlock.get(a.block)?.get(id) !== a) fail(`handle tracker has untracked allocation ${id}`);
    }
  }
  if (byHandleCount !== tracked.size) fail(`handle tracker holds ${byHandleCount} allocations, expected ${tracked.size}`);

  for (const [id, a] of state.confirmedLeaks) {
    if (state.allocationsByBlock.get(a.block)?.get(id) !== a) fail(`confirmed leak ${id} is not a tracked allocation`);
    if (!a.isConfirmedLeak()) fail(`confirmed leak ${id} is not flagged confirmed`);
  }

  const poolsByBlock = state.pools.poolsByBlock;
  for (const [pool, cidrs] of state.pools.blocksByPool) {
    if (pool === UNKNOWN_POOL_LABEL && cidrs.size === 0) fail('the no_ippool bucket is kept while empty');
    for (const cidr of cidrs) {
      if (poolsByBlock.get(cidr) !== pool) fail(`blocksByPool[${pool}] has ${cidr} but poolsByBlock says ${String(poolsByBlock.get(cidr))}`);
      if (!blocks.has(cidr)) fail(`pool ${pool} has unknown block ${cidr}`);
    }
  }
  for (const [cidr, pool] of poolsByBlock) {
    if (state.pools.blocksByPool.get(pool)?.has(cidr) !== true) fail(`poolsByBlock[${cidr}] = ${pool} but blocksByPool lacks it`);
  }
  for (const cidr of blocks.keys()) if (!poolsByBlock.has(cidr)) fail(`block ${cidr} has no pool association`);

  if (problems.length > 0) throw new GcInconsistentStateError(problems);
}
