import { cidrSize, ipVersionOfCidr, isoUtc, isPoolEnabled, type DefaultedIPPool, type IPVersion } from '@ipamkit/models';
import { defaultedPools } from '../client/pool-qualification.js';
import { hoursFor, type AllocationRate } from './allocation-rate.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import { planFill, type FillFailure } from './plan-fill.js';
import type { RunwayLimit } from './planned-node.js';
import { buildWorld, snapshotBasis, type WorldOptions } from './planned-world.js';

export interface RunwayOptions {
  /** Address families each pod needs (default: every family with an enabled pool). */
  readonly ipVersions?: readonly IPVersion[];
  /** The CNI's `maxBlocksPerHost` request value; 0 or absent means the IPAM config's. */
  readonly requestMaxBlocksPerHost?: number;
  readonly rate?: AllocationRate;
  /** Pods per node to reach (what-if `--pods-per-node`): the fill stops each node there. */
  readonly podsPerNode?: number;
  /** More pods to place per node (a pool migration's workloads); nodes not named place none. */
  readonly podsByNode?: ReadonlyMap<string, number>;
  readonly maxSteps?: number;
}

export interface NodeFamilyRunway {
  readonly version: IPVersion;
  readonly affineBlocks: number;
  readonly freeInAffineBlocks: number;
  readonly blockCap: number;
  readonly pools: readonly string[];
}

export interface NodeRunway {
  readonly node: string;
  readonly windows: boolean;
  readonly families: readonly NodeFamilyRunway[];
  /** Pods this node can still start if no other node allocated meanwhile. */
  readonly alone: number;
  /** What ends the node's runway on its own; undefined if the step budget ran out first. */
  readonly limit: RunwayLimit | undefined;
  readonly reason: string;
  /** In the round-robin fill of every node: pods this node gets before its first failure. */
  readonly inFill: number;
  /** Pods placed cluster-wide before this node's first failure in the fill; undefined if it never fails. */
  readonly failsAfterPods: number | undefined;
  readonly hoursUntilFailure: number | undefined;
  /** Why the node's allocation failed in the fill of every node, in `ipam explain --node`'s words. */
  readonly reasonInFill: string | undefined;
  /** With a pods-per-node target: whether the node reaches it. */
  readonly reachesTarget: boolean | undefined;
}

export interface PoolRunway {
  readonly pool: string;
  readonly cidr: string;
  readonly ipVersion: IPVersion;
  readonly blockSize: number;
  readonly enabled: boolean;
  readonly capacity: bigint;
  /** Free addresses now: free unreserved addresses in blocks plus unclaimed space (utilization's `available`). */
  readonly available: bigint;
  readonly nodesSelected: number;
  /** Addresses the round-robin fill took from this pool before every node stopped. */
  readonly placedInFill: number;
  /** Free addresses no node could reach in the fill (block caps, strict affinity, selectors). */
  readonly strandedAfterFill: bigint;
  /** Pods placed cluster-wide when the pool ran out in the fill; undefined if it never did. */
  readonly exhaustedAfterPods: number | undefined;
  readonly hoursUntilExhausted: number | undefined;
}

export interface RunwayReport {
  readonly now: string;
  readonly ipVersions: readonly IPVersion[];
  readonly strictAffinity: boolean;
  readonly autoAllocateBlocks: boolean;
  readonly maxBlocksPerHost: number;
  readonly rate: AllocationRate | undefined;
  readonly podsPerNode: number | undefined;
  /** The first allocation that fails in the round-robin fill of every node. */
  readonly firstFailure: FillFailure | undefined;
  readonly hoursUntilFirstFailure: number | undefined;
  /** Pods the fill placed before every node stopped. */
  readonly placedInFill: number;
  readonly nodes: readonly NodeRunway[];
  readonly pools: readonly PoolRunway[];
  /** The fill's step budget ran out: counts are lower bounds. */
  readonly truncated: boolean;
}

function defaultVersions(pools: readonly DefaultedIPPool[]): IPVersion[] {
  const versions = ([4, 6] as const).filter((v) => pools.some((p) => isPoolEnabled(p, v)));
  return versions.length === 0 ? [4] : versions;
}

/**
 * Runway (design/ipam-core.md, "Foresight"): per node and per pool, how many more pods fit before
 * an allocation fails under AutoAssign's rules, computed from a snapshot without writing. Two
 * fills answer it: each node alone (its own limit), and every node round-robin in name order (who
 * fails first and when, and what each pool can still give).
 */
export function computeRunway(snapshot: ClusterSnapshot, options: RunwayOptions = {}): RunwayReport {
  const pools = defaultedPools(snapshot.pools);
  const ipVersions = options.ipVersions ?? defaultVersions(pools);
  const worldOptions: WorldOptions = { ipVersions, requestMaxBlocksPerHost: options.requestMaxBlocksPerHost ?? 0 };
  const basis = snapshotBasis(snapshot, pools);
  const targets =
    options.podsByNode !== undefined
      ? new Map(snapshot.nodes.map((n) => [n.name, options.podsByNode?.get(n.name) ?? 0]))
      : options.podsPerNode === undefined
        ? undefined
        : new Map(snapshot.nodes.map((n) => [n.name, options.podsPerNode ?? 0]));
  const fillWorld = buildWorld(snapshot, basis, worldOptions);
  const start = new Map(fillWorld.nodes.map((n) => [n.name, n.families.map((f): NodeFamilyRunway => ({
    version: f.version,
    affineBlocks: f.affine.length,
    freeInAffineBlocks: f.affineFree,
    blockCap: f.cap,
    pools: f.allowed.map((p) => p.name),
  }))]));
  const available = new Map(fillWorld.poolAvailable);
  const fill = planFill(fillWorld, { ...(targets === undefined ? {} : { targets }), ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }) });
  const nodes = fillWorld.nodes.map((planned): NodeRunway => {
    const only = new Set([planned.name]);
    const alone = planFill(buildWorld(snapshot, basis, worldOptions, only), { only, ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }) });
    const own = alone.nodes.get(planned.name);
    const inFill = fill.nodes.get(planned.name);
    const failure = own?.failure;
    return {
      node: planned.name,
      windows: planned.windows,
      families: start.get(planned.name) ?? [],
      alone: own?.placed ?? 0,
      limit: failure?.failure.limit,
      reason: failure === undefined ? 'more pods than the planner simulates' : `IPv${failure.version}: ${failure.failure.reason}`,
      inFill: inFill?.placed ?? 0,
      failsAfterPods: inFill?.failure?.afterPods,
      hoursUntilFailure: inFill?.failure === undefined ? undefined : hoursFor(inFill.failure.afterPods, options.rate),
      reasonInFill: inFill?.failure === undefined ? undefined : `IPv${inFill.failure.version}: ${inFill.failure.failure.reason}`,
      reachesTarget: targets === undefined ? undefined : inFill?.failure === undefined,
    };
  });
  const poolRows = pools.map((pool): PoolRunway => {
    const version = ipVersionOfCidr(pool.cidr);
    const avail = available.get(pool.name) ?? 0n;
    const placed = fill.poolPlaced.get(pool.name) ?? 0;
    const exhaustedAfter = fill.poolExhaustedAfter.get(pool.name);
    const left = fillWorld.poolAvailable.get(pool.name) ?? 0n;
    return {
      pool: pool.name,
      cidr: pool.cidr,
      ipVersion: version,
      blockSize: pool.blockSize,
      enabled: isPoolEnabled(pool, version),
      capacity: cidrSize(pool.cidr),
      available: avail,
      nodesSelected: fillWorld.nodes.filter((n) => n.families.some((f) => f.allowed.some((p) => p.name === pool.name))).length,
      placedInFill: placed,
      strandedAfterFill: left > 0n ? left : 0n,
      exhaustedAfterPods: exhaustedAfter,
      hoursUntilExhausted: exhaustedAfter === undefined ? undefined : hoursFor(exhaustedAfter, options.rate),
    };
  });
  const first = fill.failures[0];
  return {
    now: isoUtc(snapshot.now),
    ipVersions,
    strictAffinity: snapshot.config.strictAffinity,
    autoAllocateBlocks: snapshot.config.autoAllocateBlocks,
    maxBlocksPerHost: snapshot.config.maxBlocksPerHost,
    rate: options.rate,
    podsPerNode: options.podsPerNode,
    firstFailure: first,
    hoursUntilFirstFailure: first === undefined ? undefined : hoursFor(first.afterPods, options.rate),
    placedInFill: fill.placed,
    nodes,
    pools: poolRows,
    truncated: fill.truncated,
  };
}
