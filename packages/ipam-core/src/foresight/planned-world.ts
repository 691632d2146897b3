import {
  cidrContains,
  ipVersionOfCidr,
  parseCidr,
  cidrSize,
  type DefaultedIPPool,
  type IPAMConfig,
  type BlockAffinity,
  type IPVersion,
  type Node,
} from '@ipamkit/models';
import { isEmpty, numFree } from '../block/block-queries.js';
import { garbageCollectCooldown } from '../block/garbage-collect-cooldown.js';
import { type HostReservedAttr, WINDOWS_RESERVED_HANDLE } from '../block/host-reserved-attr.js';
import { newBlock } from '../block/new-block.js';
import { EMPTY_BLOCK_MIN_RECLAIM_AGE_MS } from '../client/find-usable-block.js';
import { createReservationFilter, type ReservationFilter } from '../reservations/reservation-filter.js';
import { computeUtilization } from '../utilization/compute-utilization.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import { planNodeFamilies, type PlannedFamily, type PlannedNode } from './planned-node.js';

/** One block as the planner tracks it: only what decides where the next address comes from. */
export interface PlannedBlock {
  readonly cidr: string;
  readonly version: IPVersion;
  /** The first pool (name order) containing the block, if any. */
  readonly pool: string | undefined;
  readonly base: bigint;
  readonly end: bigint;
  free: number;
  /** `<type>:<host>` of the block's affinity, if any. */
  owner: string | undefined;
  /** The node family that counts this block among its affine blocks. */
  keptBy: PlannedFamily | undefined;
  /** Empty, with an affinity claimed long enough ago that another host may take it over. */
  reclaimable: boolean;
}

/** The mutable state a planned fill works on; built fresh from a snapshot for every run. */
export interface PlannedWorld {
  readonly config: IPAMConfig;
  readonly reservations: ReservationFilter;
  readonly now: Date;
  readonly pools: readonly DefaultedIPPool[];
  readonly blocks: Map<string, PlannedBlock>;
  readonly blocksByPool: Map<string, PlannedBlock[]>;
  readonly nodes: PlannedNode[];
  /** Pools where a claim search already found nothing; nothing in a fill un-exhausts them. */
  readonly noClaimablePool: Set<string>;
  /** Addresses still free per pool (utilization's `available`), decremented by the fill. */
  readonly poolAvailable: Map<string, bigint>;
}

export interface WorldOptions {
  readonly ipVersions: readonly IPVersion[];
  /** The CNI's own `maxBlocksPerHost` request value (0: the config's). */
  readonly requestMaxBlocksPerHost: number;
}

/** What every world of one snapshot shares, computed once: block facts and each pool's free space. */
export interface SnapshotBasis {
  readonly pools: readonly DefaultedIPPool[];
  readonly facts: readonly BlockFact[];
  readonly available: ReadonlyMap<string, bigint>;
  readonly affinitiesByHost: ReadonlyMap<string, readonly BlockAffinity[]>;
  /** The snapshot's nodes in name order (the fill's order). */
  readonly nodes: readonly Node[];
}

/** Windows nodes pre-reserve these IPv4 ordinals in every new block (design/ipam-core.md, "Foresight"). */
export const WINDOWS_HOST_RESERVED: HostReservedAttr = { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' };

/** What the snapshot's blocks look like after cooldown, computed once and shared by every world. */
export interface BlockFact {
  readonly cidr: string;
  readonly placement: Pick<PlannedBlock, 'base' | 'end' | 'version' | 'pool'>;
  readonly free: number;
  readonly owner: string | undefined;
  readonly reclaimable: boolean;
}

export function blockFacts(snapshot: ClusterSnapshot, pools: readonly DefaultedIPPool[], reservations: ReservationFilter): BlockFact[] {
  return snapshot.blocks.map((stored) => {
    const { block } = garbageCollectCooldown(stored, { cooldownSeconds: snapshot.config.ipCooldownSeconds, now: snapshot.now });
    const free = numFree(block, reservations);
    const owner = stored.affinity === undefined ? undefined : `${stored.affinity.type}:${stored.affinity.host}`;
    const claimedAt = stored.affinityClaimTime === undefined ? Number.NaN : Date.parse(stored.affinityClaimTime);
    const oldEnough = Number.isNaN(claimedAt) || snapshot.now.getTime() - claimedAt >= EMPTY_BLOCK_MIN_RECLAIM_AGE_MS;
    return { cidr: stored.cidr, placement: placementOf(pools, stored.cidr), free, owner, reclaimable: owner !== undefined && free > 0 && isEmpty(block) && oldEnough };
  });
}

/** Free addresses a block created now at `cidr` would have (reservations and host-reserved ordinals excluded). */
export function usableInNewBlock(world: Pick<PlannedWorld, 'reservations' | 'now'>, cidr: string, hostReserved: HostReservedAttr | undefined): number {
  const size = Number(cidrSize(cidr));
  if (world.reservations.countIn(cidr) === 0n) return Math.max(0, size - (hostReserved === undefined ? 0 : hostReserved.startOfBlock + hostReserved.endOfBlock));
  return numFree(newBlock({ cidr, now: world.now, hostReserved }), world.reservations);
}

function rangeOf(cidr: string): { base: bigint; end: bigint } {
  const parsed = parseCidr(cidr);
  return { base: parsed.network, end: parsed.network + cidrSize(parsed) };
}

/** Where a block sits: its range, family and pool (computed once per snapshot for its blocks). */
function placementOf(pools: readonly DefaultedIPPool[], cidr: string): Pick<PlannedBlock, 'base' | 'end' | 'version' | 'pool'> {
  return { ...rangeOf(cidr), version: ipVersionOfCidr(cidr), pool: pools.find((p) => cidrContains(p.cidr, cidr))?.name };
}

function insert(world: PlannedWorld, planned: PlannedBlock): PlannedBlock {
  world.blocks.set(planned.cidr, planned);
  if (planned.pool !== undefined) {
    const list = world.blocksByPool.get(planned.pool) ?? [];
    list.push(planned);
    world.blocksByPool.set(planned.pool, list);
  }
  return planned;
}

export function addPlannedBlock(world: PlannedWorld, block: Omit<PlannedBlock, 'base' | 'end' | 'version' | 'pool'>): PlannedBlock {
  return insert(world, { ...block, ...placementOf(world.pools, block.cidr) });
}

/** The shared part of every world of `snapshot`. */
export function snapshotBasis(snapshot: ClusterSnapshot, pools: readonly DefaultedIPPool[]): SnapshotBasis {
  const reservations = createReservationFilter(snapshot.reservations);
  const utilization = computeUtilization({ pools, blocks: snapshot.blocks, reservations: snapshot.reservations });
  const affinitiesByHost = new Map<string, BlockAffinity[]>();
  for (const affinity of snapshot.affinities) {
    const list = affinitiesByHost.get(affinity.host) ?? [];
    list.push(affinity);
    affinitiesByHost.set(affinity.host, list);
  }
  return {
    pools,
    facts: blockFacts(snapshot, pools, reservations),
    available: new Map(utilization.filter((u) => pools.some((p) => p.name === u.name)).map((u) => [u.name, u.available])),
    affinitiesByHost,
    nodes: [...snapshot.nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** A fresh world from the snapshot's basis; with `only`, just those nodes take part. */
export function buildWorld(snapshot: ClusterSnapshot, basis: SnapshotBasis, options: WorldOptions, only?: ReadonlySet<string>): PlannedWorld {
  const world: PlannedWorld = {
    config: snapshot.config,
    reservations: createReservationFilter(snapshot.reservations),
    now: snapshot.now,
    pools: basis.pools,
    blocks: new Map(),
    blocksByPool: new Map(),
    nodes: [],
    noClaimablePool: new Set(),
    poolAvailable: new Map(basis.available),
  };
  for (const fact of basis.facts) {
    insert(world, { cidr: fact.cidr, free: fact.free, owner: fact.owner, reclaimable: fact.reclaimable, keptBy: undefined, ...fact.placement });
  }
  const nodes = only === undefined ? basis.nodes : basis.nodes.filter((n) => only.has(n.name));
  world.nodes.push(...nodes.map((node) => planNodeFamilies(world, snapshot, node, options, basis.affinitiesByHost.get(node.name) ?? [])));
  return world;
}
