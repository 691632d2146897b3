import type { IPVersion } from '@ipamkit/models';
import { planOneAllocation, takeAddresses } from './plan-allocation.js';
import type { PlannedFailure, PlannedFamily, PlannedNode } from './planned-node.js';
import type { PlannedWorld } from './planned-world.js';

/** The first failed allocation of one node during a planned fill. */
export interface FillFailure {
  readonly node: string;
  readonly version: IPVersion;
  /** Pods placed cluster-wide before this allocation failed. */
  readonly afterPods: number;
  readonly failure: PlannedFailure;
}

export interface NodeFill {
  readonly placed: number;
  readonly failure: FillFailure | undefined;
}

export interface FillResult {
  readonly placed: number;
  readonly nodes: ReadonlyMap<string, NodeFill>;
  /** Node failures in the order they happened. */
  readonly failures: readonly FillFailure[];
  /** Per pool, the pods placed cluster-wide when its last free address went. */
  readonly poolExhaustedAfter: ReadonlyMap<string, number>;
  /** Per pool, the addresses the fill took from it. */
  readonly poolPlaced: ReadonlyMap<string, number>;
  /** The step budget ran out before every node stopped. */
  readonly truncated: boolean;
}

export interface FillOptions {
  /** Pods each node should reach (absent: no target, fill until it fails). */
  readonly targets?: ReadonlyMap<string, number>;
  /** Only these nodes allocate (absent: every node). */
  readonly only?: ReadonlySet<string>;
  /** Single allocations simulated one by one before giving up (batched rounds are not counted). */
  readonly maxSteps?: number;
}

export const DEFAULT_FILL_STEPS = 2_000_000;

interface Active {
  readonly node: PlannedNode;
  placed: number;
  readonly target: number;
}

function consumeAffine(world: PlannedWorld, family: PlannedFamily, count: number, placedIn: Map<string, number>): void {
  let left = count;
  for (const cidr of family.affine) {
    if (left === 0) return;
    const block = world.blocks.get(cidr);
    if (block === undefined || block.free <= 0) continue;
    const n = Math.min(left, block.free);
    takeAddresses(world, block, n);
    if (block.pool !== undefined) placedIn.set(block.pool, (placedIn.get(block.pool) ?? 0) + n);
    left -= n;
  }
}

/**
 * A round-robin fill (design/ipam-core.md, "Foresight"): nodes in name order, one pod each per
 * round, every pod allocated by AutoAssign's rules; a node whose allocation fails stops, the others
 * go on. Rounds in which every node still has room in its own blocks are taken in one batch, so
 * the cost follows the number of block claims, not the number of pods.
 */
export function planFill(world: PlannedWorld, options: FillOptions = {}): FillResult {
  const maxSteps = options.maxSteps ?? DEFAULT_FILL_STEPS;
  const nodes = new Map<string, NodeFill>();
  const failures: FillFailure[] = [];
  const exhausted = new Map<string, number>();
  const placedIn = new Map<string, number>();
  let active: Active[] = world.nodes
    .filter((n) => options.only === undefined || options.only.has(n.name))
    .map((node) => ({ node, placed: 0, target: options.targets?.get(node.name) ?? Number.POSITIVE_INFINITY }));
  let placed = 0;
  let steps = 0;
  const noteExhausted = (): void => {
    for (const [pool, left] of world.poolAvailable) if (left <= 0n && !exhausted.has(pool)) exhausted.set(pool, placed);
  };
  const finish = (a: Active, failure: FillFailure | undefined): void => {
    nodes.set(a.node.name, { placed: a.placed, failure });
    if (failure !== undefined) failures.push(failure);
  };
  for (const a of active) if (a.target <= 0) finish(a, undefined);
  active = active.filter((a) => a.target > 0);
  while (active.length > 0) {
    const batch = Math.min(...active.map((a) => Math.min(a.target - a.placed, ...a.node.families.map((f) => f.affineFree))));
    if (batch >= 1 && Number.isFinite(batch)) {
      for (const a of active) {
        for (const family of a.node.families) consumeAffine(world, family, batch, placedIn);
        a.placed += batch;
      }
      placed += batch * active.length;
    } else {
      if (steps >= maxSteps) break;
      for (const a of active) {
        if (a.placed >= a.target) continue;
        steps += 1;
        let failed: FillFailure | undefined;
        for (const family of a.node.families) {
          const result = planOneAllocation(world, family);
          if (!result.ok) {
            failed = { node: a.node.name, version: family.version, afterPods: placed, failure: result.failure };
            break;
          }
          if (result.block.pool !== undefined) placedIn.set(result.block.pool, (placedIn.get(result.block.pool) ?? 0) + 1);
        }
        if (failed !== undefined) {
          finish(a, failed);
          a.placed = Number.NaN;
        } else {
          a.placed += 1;
          placed += 1;
        }
      }
    }
    noteExhausted();
    const still: Active[] = [];
    for (const a of active) {
      if (Number.isNaN(a.placed)) continue;
      if (a.placed >= a.target) finish(a, undefined);
      else still.push(a);
    }
    active = still;
  }
  for (const a of active) finish(a, undefined);
  return { placed, nodes, failures, poolExhaustedAfter: exhausted, poolPlaced: placedIn, truncated: active.length > 0 };
}
